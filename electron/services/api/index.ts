export { createApiClient } from './client.ts';
export type { ApiClient, CallDetailsView, CallOptions, CampaignUpload, PageOptions } from './client.ts';
export { ApiError, isApiError } from './apiError.ts';
export type { ApiErrorKind } from './apiError.ts';
export type { ApiClientOptions, RetryInfo } from './transport.ts';

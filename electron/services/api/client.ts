// The app's client for the calling service: one function per operation. Requests are checked
// against the strict rules before they leave (required upload fields, explicit history window,
// exactly one number source); responses are parsed with the shared wire schemas and normalised
// (shared/service/normalize.ts) so every documented variant reaches the app in one shape. GETs (and
// the balance check) are retried on 429 / 5xx / dropped connections; nothing that starts calls is.
import { callOperations } from './callOperations.ts';
import { campaignOperations } from './campaignOperations.ts';
import { createTransport } from './transport.ts';
import type { ApiClientOptions } from './transport.ts';
import { workspaceOperations } from './workspaceOperations.ts';

export type { CallDetailsView } from './callOperations.ts';
export type { CampaignUpload } from './campaignOperations.ts';
export type { CallOptions, PageOptions } from './requestChecks.ts';

export function createApiClient(options: ApiClientOptions) {
  const request = createTransport(options);
  return {
    ...workspaceOperations(request),
    ...callOperations(request),
    ...campaignOperations(request, options),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

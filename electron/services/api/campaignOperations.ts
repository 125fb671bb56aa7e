// Campaign operations of the calling service: the large flow (upload, upload status, balance,
// make-call-async, the rejected rows file), the standard flow (save, start) and the listing and
// terminate of campaigns. Nothing that starts calls is retried.
import {
  campaignListResponseSchema,
  campaignStartRequestSchema,
  campaignStartResponseSchema,
  campaignStartV2RequestSchema,
  hasExactlyOneNumberSource,
  makeCallAsyncRequestSchema,
  makeCallAsyncResponseSchema,
  terminateResponseSchema,
} from '../../../shared/service/campaign.ts';
import type {
  CampaignListResponse,
  CampaignStartRequest,
  CampaignStartResponse,
  CampaignStartV2Request,
  MakeCallAsyncInput,
  MakeCallAsyncResponse,
  TerminateRequest,
  TerminateResponse,
} from '../../../shared/service/campaign.ts';
import { normalizeBalance, normalizeUploadStatus } from '../../../shared/service/normalize.ts';
import type { BalanceView, UploadStatusView } from '../../../shared/service/normalize.ts';
import {
  balanceResponseSchema,
  campaignSaveResponseSchema,
  campaignUploadOptionsSchema,
  uploadCsvResponseSchema,
  uploadStatusResponseSchema,
} from '../../../shared/service/upload.ts';
import type {
  CampaignSaveResponse,
  CampaignUploadOptions,
  UploadCsvResponse,
  UploadStatusResponse,
} from '../../../shared/service/upload.ts';
import { ApiError, kindForStatus } from './apiError.ts';
import { checked, enc, refused } from './requestChecks.ts';
import type { CallOptions, PageOptions } from './requestChecks.ts';
import type { Transport } from './transport.ts';
import type { ApiClientOptions } from './transport.ts';

/**
 * A CSV upload: the file plus the campaign fields (objects are sent as the JSON strings the service
 * wants). The start/end times and call_config are required, as the service requires them.
 */
export interface CampaignUpload extends CampaignUploadOptions {
  file: Blob;
  fileName: string;
}

/** An upload answer in one shape; a status the docs do not name is an invalid response. */
function uploadView(operation: string, r: UploadStatusResponse | UploadCsvResponse): UploadStatusView {
  const view = normalizeUploadStatus(r);
  if (view) return view;
  throw new ApiError({
    kind: 'invalid_response',
    operation,
    message: `The calling service reported upload status "${r.status}", which the app does not know`,
  });
}

function uploadForm(operation: string, u: CampaignUpload): FormData {
  const fields = checked(operation, campaignUploadOptionsSchema, u);
  const form = new FormData();
  form.set('file', u.file, u.fileName);
  form.set('agent_id', fields.agent_id);
  form.set('campaign_name', fields.campaign_name);
  form.set('country_code', fields.country_code);
  form.set('variables_map', JSON.stringify(fields.variables_map));
  form.set('campaign_start_time', fields.campaign_start_time);
  form.set('campaign_end_time', fields.campaign_end_time);
  form.set('call_config', JSON.stringify(fields.call_config));
  if (fields.remove_invalid_rows !== undefined)
    form.set('remove_invalid_rows', String(fields.remove_invalid_rows));
  if (fields.transliterate_callee_name !== undefined) {
    form.set('transliterate_callee_name', String(fields.transliterate_callee_name));
  }
  return form;
}

export function campaignOperations(request: Transport, options: ApiClientOptions) {
  return {
    /** `POST /campaign/upload-csv` (5,000+ rows). Store the returned bulk_list_id. */
    async uploadCampaignCsv(upload: CampaignUpload, opts: CallOptions = {}): Promise<UploadStatusView> {
      const res = await request({
        operation: 'uploadCampaignCsv',
        method: 'POST',
        path: '/campaign/upload-csv',
        form: uploadForm('uploadCampaignCsv', upload),
        schema: uploadCsvResponseSchema,
        idempotent: false,
        ...opts,
      });
      return uploadView('uploadCampaignCsv', res);
    },

    /**
     * `GET /campaign/upload-status/{id}` in one shape: `phase` in_progress (uploaded, verifying,
     * processing), done (completed, ready) or failed; either counter set.
     */
    async getUploadStatus(bulkListId: string, opts: CallOptions = {}): Promise<UploadStatusView> {
      const res = await request({
        operation: 'getUploadStatus',
        method: 'GET',
        path: `/campaign/upload-status/${enc(bulkListId)}`,
        schema: uploadStatusResponseSchema,
        idempotent: true,
        ...opts,
      });
      return uploadView('getUploadStatus', res);
    },

    /**
     * `POST /campaign/check-balance/{id}` (a check; safe to repeat), from the schema shape, the
     * guidance shape or both: `sufficientBalance` is null when the service does not say.
     */
    async checkBalance(bulkListId: string, opts: CallOptions = {}): Promise<BalanceView> {
      const res = await request({
        operation: 'checkBalance',
        method: 'POST',
        path: `/campaign/check-balance/${enc(bulkListId)}`,
        schema: balanceResponseSchema,
        idempotent: true,
        ...opts,
      });
      return normalizeBalance(res);
    },

    /** `POST /campaign/make-call-async`, exactly one of from_numbers / number_pool_id. Never retried: a list must start once. */
    async makeCallAsync(req: MakeCallAsyncInput, opts: CallOptions = {}): Promise<MakeCallAsyncResponse> {
      const body = checked('makeCallAsync', makeCallAsyncRequestSchema, req);
      if (!hasExactlyOneNumberSource(body)) {
        throw refused('makeCallAsync', 'Give exactly one of from_numbers or number_pool_id');
      }
      return request({
        operation: 'makeCallAsync',
        method: 'POST',
        path: '/campaign/make-call-async',
        json: body,
        schema: makeCallAsyncResponseSchema,
        idempotent: false,
        ...opts,
      });
    },

    /**
     * The rejected rows file of an upload (`invalidated_rows_csv_url`): a storage-style public URL,
     * so no key is sent with it (it may be on another host). Text, at most 256 MB.
     */
    async fetchInvalidRowsCsv(url: string, opts: { signal?: AbortSignal } = {}): Promise<string> {
      const parsed = new URL(url);
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
        throw new ApiError({
          kind: 'invalid_response',
          operation: 'fetchInvalidRowsCsv',
          message: 'The rejected rows file has an address the app cannot read',
        });
      const signal = AbortSignal.any([
        AbortSignal.timeout(options.timeoutMs ?? 30_000),
        ...(opts.signal ? [opts.signal] : []),
      ]);
      let res: Response;
      try {
        res = await (options.fetch ?? globalThis.fetch)(parsed, { signal });
      } catch (e) {
        throw new ApiError({
          kind: 'unreachable',
          operation: 'fetchInvalidRowsCsv',
          message: `The rejected rows file could not be downloaded (${e instanceof Error ? e.message : 'network error'})`,
        });
      }
      if (!res.ok)
        throw new ApiError({
          kind: kindForStatus(res.status),
          status: res.status,
          operation: 'fetchInvalidRowsCsv',
          message: `The rejected rows file answered HTTP ${res.status}`,
        });
      const size = Number(res.headers.get('content-length') ?? '0');
      if (size > 256 * 1024 * 1024)
        throw new ApiError({
          kind: 'invalid_response',
          operation: 'fetchInvalidRowsCsv',
          message: 'The rejected rows file is larger than 256 MB',
        });
      return res.text();
    },
    /** `POST /campaign/save` (standard flow, multipart). */
    async saveCampaign(upload: CampaignUpload, opts: CallOptions = {}): Promise<CampaignSaveResponse> {
      return request({
        operation: 'saveCampaign',
        method: 'POST',
        path: '/campaign/save',
        form: uploadForm('saveCampaign', upload),
        schema: campaignSaveResponseSchema,
        idempotent: false,
        ...opts,
      });
    },

    /** `POST /campaign/start` (standard flow, from_numbers). Never retried. */
    async startCampaign(req: CampaignStartRequest, opts: CallOptions = {}): Promise<CampaignStartResponse> {
      return request({
        operation: 'startCampaign',
        method: 'POST',
        path: '/campaign/start',
        json: checked('startCampaign', campaignStartRequestSchema, req),
        schema: campaignStartResponseSchema,
        idempotent: false,
        ...opts,
      });
    },

    /** `POST /campaign/v2/start` (standard flow, number pool). Never retried. */
    async startCampaignV2(
      req: CampaignStartV2Request,
      opts: CallOptions = {},
    ): Promise<CampaignStartResponse> {
      return request({
        operation: 'startCampaignV2',
        method: 'POST',
        path: '/campaign/v2/start',
        json: checked('startCampaignV2', campaignStartV2RequestSchema, req),
        schema: campaignStartResponseSchema,
        idempotent: false,
        ...opts,
      });
    },

    /** `GET /campaign/all`. */
    async listCampaigns(opts: PageOptions & { callCount?: boolean } = {}): Promise<CampaignListResponse> {
      return request({
        operation: 'listCampaigns',
        method: 'GET',
        path: '/campaign/all',
        query: {
          limit: opts.limit,
          offset: opts.offset,
          call_count: opts.callCount,
        },
        schema: campaignListResponseSchema,
        idempotent: true,
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
    },

    /** `PATCH /campaign/terminate`: cancel registered/retry calls by agent, ids, campaign or numbers. */
    async terminateCalls(req: TerminateRequest, opts: CallOptions = {}): Promise<TerminateResponse> {
      return request({
        operation: 'terminateCalls',
        method: 'PATCH',
        path: '/campaign/terminate',
        json: req,
        schema: terminateResponseSchema,
        idempotent: false,
        ...opts,
      });
    },
  };
}

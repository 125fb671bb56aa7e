// The app's client for the calling service: one function per operation. Requests are checked
// against the strict rules before they leave (required upload fields, explicit history window,
// exactly one number source); responses are parsed with the shared wire schemas and normalised
// (shared/service/normalize.ts) so every documented variant reaches the app in one shape. GETs (and
// the balance check) are retried on 429 / 5xx / dropped connections; nothing that starts calls is.
import type { z } from 'zod';
import {
  agentByIdResponseSchema,
  agentListResponseSchema,
  agentUpdateResponseSchema,
  normalizeAgent,
} from '../../../shared/service/agent.ts';
import type {
  AgentDetail,
  AgentListItem,
  AgentView,
  EditEventSubscriptionsRequest,
} from '../../../shared/service/agent.ts';
import { callDetailsResponseSchema } from '../../../shared/service/callDetails.ts';
import type { CallDetails } from '../../../shared/service/callDetails.ts';
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
import {
  historyEnvelopeSchema,
  historyQuerySchema,
  readCallRecords,
} from '../../../shared/service/history.ts';
import type { CallRecord, HistoryQuery, RejectedRecord } from '../../../shared/service/history.ts';
import {
  individualCallRequestSchema,
  individualCallResponseSchema,
  numberSourceProblem,
} from '../../../shared/service/individualCall.ts';
import type { IndividualCallInput, IndividualCallResponse } from '../../../shared/service/individualCall.ts';
import {
  normalizeBalance,
  normalizeHistoryPage,
  normalizeTotal,
  normalizeTranscript,
  normalizeUploadStatus,
} from '../../../shared/service/normalize.ts';
import type {
  BalanceView,
  HistoryPage,
  TranscriptTurnView,
  UploadStatusView,
} from '../../../shared/service/normalize.ts';
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
import {
  workspaceInfoResponseSchema,
  workspaceNumbersResponseSchema,
} from '../../../shared/service/workspace.ts';
import type { WorkspaceInfo, WorkspaceNumber } from '../../../shared/service/workspace.ts';
import { ApiError, kindForStatus } from './apiError.ts';
import { createTransport } from './transport.ts';
import type { ApiClientOptions } from './transport.ts';

/** Options every call accepts. */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface PageOptions extends CallOptions {
  limit?: number;
  offset?: number;
}

/**
 * A CSV upload: the file plus the campaign fields (objects are sent as the JSON strings the service
 * wants). The start/end times and call_config are required, as the service requires them.
 */
export interface CampaignUpload extends CampaignUploadOptions {
  file: Blob;
  fileName: string;
}

/** Call details with the transcript as turns (`transcription_url` in either documented form). */
export interface CallDetailsView extends Omit<CallDetails, 'transcription_url'> {
  transcript: TranscriptTurnView[];
}

const enc = encodeURIComponent;

const refused = (operation: string, message: string) =>
  new ApiError({ kind: 'rejected', operation, message });

/** Check what we are about to send; a bad request never leaves the machine. */
function checked<T extends z.ZodType>(operation: string, schema: T, value: unknown): z.infer<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw refused(operation, `${where}${issue?.message ?? 'invalid request'}`);
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

export function createApiClient(options: ApiClientOptions) {
  const request = createTransport(options);

  return {
    /** `GET /workspace`: the first health check ("Test connection"); 401 → `Invalid credentials`. */
    async getWorkspaceInfo(opts: CallOptions = {}): Promise<Omit<WorkspaceInfo, 'api_key'>> {
      const res = await request({
        operation: 'getWorkspaceInfo',
        method: 'GET',
        path: '/workspace',
        schema: workspaceInfoResponseSchema,
        idempotent: true,
        ...opts,
      });
      // The service echoes the key; it never leaves the client.
      const { api_key: _dropped, ...info } = res.workspace_info;
      return info;
    },

    /** `GET /workspace/numbers`: caller numbers; `id` is the from_number_id, with its number_pool_id. */
    async listWorkspaceNumbers(opts: PageOptions = {}): Promise<WorkspaceNumber[]> {
      const res = await request({
        operation: 'listWorkspaceNumbers',
        method: 'GET',
        path: '/workspace/numbers',
        query: { limit: opts.limit, offset: opts.offset },
        schema: workspaceNumbersResponseSchema,
        idempotent: true,
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      return res.workspace_numbers;
    },

    /** `GET /agent/all` (no prompt text; use getAgent for that). */
    async listAgents(opts: PageOptions = {}): Promise<AgentListItem[]> {
      return request({
        operation: 'listAgents',
        method: 'GET',
        path: '/agent/all',
        query: { limit: opts.limit, offset: opts.offset },
        schema: agentListResponseSchema,
        idempotent: true,
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
    },

    /** `GET /agent/{id}` as received (unknown fields kept), from any documented envelope. */
    async getAgentDetail(agentId: string, opts: CallOptions = {}): Promise<AgentDetail> {
      return request({
        operation: 'getAgent',
        method: 'GET',
        path: `/agent/${enc(agentId)}`,
        schema: agentByIdResponseSchema,
        idempotent: true,
        ...opts,
      });
    },

    /** `GET /agent/{id}`, normalised from either documented shape: prompt text, variables, versions. */
    async getAgent(agentId: string, opts: CallOptions = {}): Promise<AgentView> {
      const detail = await request({
        operation: 'getAgent',
        method: 'GET',
        path: `/agent/${enc(agentId)}`,
        schema: agentByIdResponseSchema,
        idempotent: true,
        ...opts,
      });
      return normalizeAgent(detail);
    },

    /** `PATCH /agent/v1` edit_event_subscriptions (X-API-KEY; the bearer token too when one is stored). */
    async editEventSubscriptions(
      req: Omit<EditEventSubscriptionsRequest, 'operation'>,
      opts: CallOptions = {},
    ): Promise<z.infer<typeof agentUpdateResponseSchema>> {
      return request({
        operation: 'editEventSubscriptions',
        method: 'PATCH',
        path: '/agent/v1',
        json: {
          operation: 'edit_event_subscriptions',
          agent_id: req.agent_id,
          event_subscriptions: req.event_subscriptions,
        },
        schema: agentUpdateResponseSchema,
        idempotent: false,
        bearer: true,
        ...opts,
      });
    },

    /**
     * `GET /calling/history`: one page of an explicit window (the service's default is one stale
     * day). Transcripts as turns, times as UTC ISO, `total` a number or null ("many").
     */
    async listCallHistory(query: HistoryQuery, opts: CallOptions = {}): Promise<HistoryPage> {
      const q = checked('listCallHistory', historyQuerySchema, query);
      const page = await request({
        operation: 'listCallHistory',
        method: 'GET',
        path: '/calling/history',
        query: q,
        schema: historyEnvelopeSchema,
        idempotent: true,
        ...opts,
      });
      // A malformed record is left out (counted in `skipped`), never failing the page.
      const { records, rejected } = readCallRecords(page.calls);
      return { ...normalizeHistoryPage({ ...page, calls: records }), skipped: rejected.length };
    },

    /**
     * `GET /calling/history` as received (the wire records, transcript as sent) with `total` as a
     * number or null: the history sync stores these (raw kept) and normalises them itself. Each
     * record is checked on its own: the ones that fail come back in `rejected` (with the field and
     * why), and the page's others are still usable.
     */
    async listCallHistoryRecords(
      query: HistoryQuery,
      opts: CallOptions = {},
    ): Promise<{ records: CallRecord[]; rejected: RejectedRecord[]; count: number; total: number | null }> {
      const q = checked('listCallHistory', historyQuerySchema, query);
      const page = await request({
        operation: 'listCallHistory',
        method: 'GET',
        path: '/calling/history',
        query: q,
        schema: historyEnvelopeSchema,
        idempotent: true,
        ...opts,
      });
      const { records, rejected } = readCallRecords(page.calls);
      return { records, rejected, count: page.count, total: normalizeTotal(page.total) };
    },

    /** `GET /calling/call-details?id=`, the transcript as turns. */
    async getCallDetails(
      callId: string,
      opts: CallOptions & { sendAnalysis?: boolean } = {},
    ): Promise<CallDetailsView> {
      const res = await request({
        operation: 'getCallDetails',
        method: 'GET',
        path: '/calling/call-details',
        query: { id: callId, send_analysis: opts.sendAnalysis },
        schema: callDetailsResponseSchema,
        idempotent: true,
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      const { transcription_url: turns, ...details } = res.data;
      return { ...details, transcript: normalizeTranscript(turns) };
    },

    /**
     * `POST /calling/v2/outbound/individual` with exactly one number source. Without credits the
     * service queues the call (`registered`) rather than refusing it. Never retried: a retry could
     * call the person twice.
     */
    async startIndividualCall(
      req: IndividualCallInput,
      opts: CallOptions = {},
    ): Promise<IndividualCallResponse> {
      const body = checked('startIndividualCall', individualCallRequestSchema, req);
      const problem = numberSourceProblem(body);
      if (problem) throw refused('startIndividualCall', problem);
      return request({
        operation: 'startIndividualCall',
        method: 'POST',
        path: '/calling/v2/outbound/individual',
        json: body,
        schema: individualCallResponseSchema,
        idempotent: false,
        ...opts,
      });
    },

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

    /** `POST /campaign/save` (standard flow, multipart). */
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
        query: { limit: opts.limit, offset: opts.offset, call_count: opts.callCount },
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

export type ApiClient = ReturnType<typeof createApiClient>;

// The app's client for the calling service: one function per operation, responses checked with the
// shared wire schemas (tolerant of every documented variant). GETs (and the balance check) are
// retried on 429 / 5xx / dropped connections; nothing that creates or starts anything is.
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
  campaignStartResponseSchema,
  makeCallAsyncResponseSchema,
  terminateResponseSchema,
} from '../../../shared/service/campaign.ts';
import type {
  CampaignListResponse,
  CampaignStartRequest,
  CampaignStartResponse,
  CampaignStartV2Request,
  MakeCallAsyncRequest,
  MakeCallAsyncResponse,
  TerminateRequest,
  TerminateResponse,
} from '../../../shared/service/campaign.ts';
import { uploadPhase } from '../../../shared/service/enums.ts';
import type { UploadPhase } from '../../../shared/service/enums.ts';
import { historyQuerySchema, historyResponseSchema } from '../../../shared/service/history.ts';
import type { HistoryQuery, HistoryResponse } from '../../../shared/service/history.ts';
import { individualCallResponseSchema } from '../../../shared/service/individualCall.ts';
import type {
  IndividualCallRequest,
  IndividualCallResponse,
} from '../../../shared/service/individualCall.ts';
import {
  balanceResponseSchema,
  campaignSaveResponseSchema,
  campaignUploadOptionsSchema,
  uploadCsvResponseSchema,
  uploadStatusResponseSchema,
} from '../../../shared/service/upload.ts';
import type {
  BalanceResponse,
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
import { ApiError } from './apiError.ts';
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

/** A CSV upload: the file plus the campaign fields (objects are sent as the JSON strings the service wants). */
export interface CampaignUpload extends CampaignUploadOptions {
  file: Blob;
  fileName: string;
}

const enc = encodeURIComponent;

/** Check what we are about to send; a bad request never leaves the machine. */
function checked<T extends z.ZodType>(operation: string, schema: T, value: unknown): z.infer<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw new ApiError({
    kind: 'rejected',
    operation,
    message: `${where}${issue?.message ?? 'invalid request'}`,
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
  if (fields.campaign_start_time) form.set('campaign_start_time', fields.campaign_start_time);
  if (fields.campaign_end_time) form.set('campaign_end_time', fields.campaign_end_time);
  if (fields.call_config) form.set('call_config', JSON.stringify(fields.call_config));
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

    /**
     * `PATCH /agent/v1` edit_event_subscriptions: the bearer token too when the workspace has one
     * (the seed sends both; newer docs authenticate with the key alone, so without one we still try).
     */
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
        bearer: 'if-stored',
        ...opts,
      });
    },

    /** `GET /calling/history`: one page (`total` may be a number or a string such as "many"). */
    async listCallHistory(query: HistoryQuery = {}, opts: CallOptions = {}): Promise<HistoryResponse> {
      const q = checked('listCallHistory', historyQuerySchema, query);
      return request({
        operation: 'listCallHistory',
        method: 'GET',
        path: '/calling/history',
        query: q,
        schema: historyResponseSchema,
        idempotent: true,
        ...opts,
      });
    },

    /** `GET /calling/call-details?id=`. */
    async getCallDetails(
      callId: string,
      opts: CallOptions & { sendAnalysis?: boolean } = {},
    ): Promise<CallDetails> {
      const res = await request({
        operation: 'getCallDetails',
        method: 'GET',
        path: '/calling/call-details',
        query: { id: callId, send_analysis: opts.sendAnalysis },
        schema: callDetailsResponseSchema,
        idempotent: true,
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      return res.data;
    },

    /** `POST /calling/v2/outbound/individual`. Never retried: a retry could call the person twice. */
    async startIndividualCall(
      req: IndividualCallRequest,
      opts: CallOptions = {},
    ): Promise<IndividualCallResponse> {
      return request({
        operation: 'startIndividualCall',
        method: 'POST',
        path: '/calling/v2/outbound/individual',
        json: req,
        schema: individualCallResponseSchema,
        idempotent: false,
        ...opts,
      });
    },

    /** `POST /campaign/upload-csv` (5,000+ rows). Store the returned bulk_list_id. */
    async uploadCampaignCsv(upload: CampaignUpload, opts: CallOptions = {}): Promise<UploadCsvResponse> {
      return request({
        operation: 'uploadCampaignCsv',
        method: 'POST',
        path: '/campaign/upload-csv',
        form: uploadForm('uploadCampaignCsv', upload),
        schema: uploadCsvResponseSchema,
        idempotent: false,
        ...opts,
      });
    },

    /** `GET /campaign/upload-status/{id}`, with the phase a client acts on (ready = completed). */
    async getUploadStatus(
      bulkListId: string,
      opts: CallOptions = {},
    ): Promise<UploadStatusResponse & { phase: UploadPhase }> {
      const res = await request({
        operation: 'getUploadStatus',
        method: 'GET',
        path: `/campaign/upload-status/${enc(bulkListId)}`,
        schema: uploadStatusResponseSchema,
        idempotent: true,
        ...opts,
      });
      return { ...res, phase: uploadPhase(res.status) };
    },

    /** `POST /campaign/check-balance/{id}` (a check; safe to repeat). */
    async checkBalance(bulkListId: string, opts: CallOptions = {}): Promise<BalanceResponse> {
      return request({
        operation: 'checkBalance',
        method: 'POST',
        path: `/campaign/check-balance/${enc(bulkListId)}`,
        schema: balanceResponseSchema,
        idempotent: true,
        ...opts,
      });
    },

    /** `POST /campaign/make-call-async`. Never retried: a list must start once. */
    async makeCallAsync(req: MakeCallAsyncRequest, opts: CallOptions = {}): Promise<MakeCallAsyncResponse> {
      return request({
        operation: 'makeCallAsync',
        method: 'POST',
        path: '/campaign/make-call-async',
        json: req,
        schema: makeCallAsyncResponseSchema,
        idempotent: false,
        ...opts,
      });
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
        json: req,
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
        json: req,
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

// Call operations of the calling service: call history (normalised pages, or a page's text), one call's details
// with its transcript, and an individual call (the builder's test call).
import { callDetailsResponseSchema } from '../../../shared/service/callDetails.ts';
import {
  historyEnvelopeSchema,
  historyQuerySchema,
  readCallRecords,
  recordKeyOf,
} from '../../../shared/service/history.ts';
import type { HistoryPageText, HistoryQuery } from '../../../shared/service/history.ts';
import {
  individualCallRequestSchema,
  individualCallResponseSchema,
  numberSourceProblem,
} from '../../../shared/service/individualCall.ts';
import type { IndividualCallInput, IndividualCallResponse } from '../../../shared/service/individualCall.ts';
import {
  normalizeHistoryPage,
  normalizeTotal,
  normalizeTranscript,
} from '../../../shared/service/normalize.ts';
import type { HistoryPage } from '../../../shared/service/normalize.ts';
import { checked, refused } from './requestChecks.ts';
import type { CallOptions } from './requestChecks.ts';
import type { Transport } from './transport.ts';
import type { CallDetails } from '../../../shared/service/callDetails.ts';
import type { TranscriptTurnView } from '../../../shared/service/normalize.ts';

/** Call details with the transcript as turns (`transcription_url` in either documented form). */
export interface CallDetailsView extends Omit<CallDetails, 'transcription_url'> {
  transcript: TranscriptTurnView[];
}

export function callOperations(request: Transport) {
  /** One page of `GET /calling/history`, the envelope checked; each caller reads the records its own way. */
  const historyPage = (query: HistoryQuery, opts: CallOptions, onBody?: (text: string) => void) =>
    request({
      operation: 'listCallHistory',
      method: 'GET',
      path: '/calling/history',
      query: checked('listCallHistory', historyQuerySchema, query),
      schema: historyEnvelopeSchema,
      idempotent: true,
      ...opts,
      ...(onBody ? { onBody } : {}),
    });
  return {
    /**
     * `GET /calling/history`: one page of an explicit window (the service's default is one stale
     * day). Transcripts as turns, times as UTC ISO, `total` a number or null ("many").
     */
    async listCallHistory(query: HistoryQuery, opts: CallOptions = {}): Promise<HistoryPage> {
      const page = await historyPage(query, opts);
      // A malformed record is left out (counted in `skipped`), never failing the page.
      const { records, rejected } = readCallRecords(page.calls);
      return {
        ...normalizeHistoryPage({ ...page, calls: records }),
        skipped: rejected.length,
      };
    },

    /**
     * `GET /calling/history` with its records unread: the page's text (the history sync's DB worker
     * reads and checks each record, `readCallRecords`), `total` as a number or null, and each
     * record's key (`recordKeyOf`) for the sync's count of distinct calls per window.
     */
    async listCallHistoryPage(query: HistoryQuery, opts: CallOptions = {}): Promise<HistoryPageText> {
      let text = '';
      const page = await historyPage(query, opts, (body) => (text = body));
      return {
        text,
        count: page.count,
        total: normalizeTotal(page.total),
        items: page.calls.length,
        keys: page.calls.map(recordKeyOf),
      };
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
  };
}

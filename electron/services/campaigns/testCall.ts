// A test call of the builder's campaign: one contact row's variables, one caller number or pool,
// placed now or at the campaign's window; then its status and transcript while it runs.
import { parseTestCallNumber, testCallTiming } from '../../../shared/domain/testCall.ts';
import type { ParsedRequestOf, ResponseOf } from '../../../shared/ipc/contract.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { isLocalDraftAgent } from '../agents/draftAgents.ts';
import { agentUpload } from '../agents/listMapping.ts';
import { isApiError } from '../api/index.ts';
import type { ApiClient } from '../api/index.ts';
import type { DeskContext } from '../desk/context.ts';
import { explainApiError, isOffline } from './explainError.ts';
import { callConfigOf } from './validateSettings.ts';

const ENDED = new Set([
  'completed',
  'failed',
  'cancelled',
  'busy',
  'no-answer',
  'not_answered',
  'terminated',
]);

/** The service's error as the desk's (unreachable or service_error); other errors as they are. */
function serviceFailure(e: unknown): never {
  if (!isApiError(e)) throw e;
  throw new DeskFailure(isOffline(e) ? 'unreachable' : 'service_error', explainApiError(e));
}

export async function startTestCall(
  ctx: DeskContext,
  client: () => Promise<ApiClient>,
  req: ParsedRequestOf<'campaigns:test-call'>,
): Promise<ResponseOf<'campaigns:test-call'>> {
  const s = req.settings;
  if (!s.agentId || s.listId === null)
    throw new DeskFailure('invalid_request', 'Choose a contact list and an agent', 'agentId');
  if (isLocalDraftAgent(s.agentId))
    throw new DeskFailure(
      'invalid_request',
      'This agent is a local draft: it is not on the service, so it cannot take a test call',
      'agentId',
    );
  const source =
    s.numberSource.kind === 'pool'
      ? s.numberSource.numberPoolId.trim()
        ? { number_pool_id: s.numberSource.numberPoolId.trim() }
        : null
      : s.numberSource.fromNumbers.length === 1
        ? (s.numberSource.fromNumbers[0] as string).startsWith('+')
          ? { from_number: s.numberSource.fromNumbers[0] as string }
          : { from_number_id: s.numberSource.fromNumbers[0] as string }
        : null;
  if (!source)
    throw new DeskFailure(
      'invalid_request',
      'A test call needs exactly one caller number or a number pool',
      'numberSource',
    );
  const number = parseTestCallNumber(req.mobileNumber, s.countryCode);
  if (!number.ok) throw new DeskFailure('invalid_request', number.message, 'mobileNumber');
  const timing = testCallTiming({
    mode: req.timing,
    nowMs: Date.now(),
    timezone: s.timezone,
    windowStart: s.call.windowStart,
    windowEnd: s.call.windowEnd,
  });
  const preview = await ctx.db.call('campaigns.rowCells', { listId: s.listId, row: req.row });
  if (!preview) throw new DeskFailure('not_found', `Row ${req.row} is not in this list`, 'row');
  const upload = await agentUpload(ctx, {
    listId: s.listId,
    agentId: s.agentId,
    ...(s.versionId ? { versionId: s.versionId } : {}),
  });
  const custom: Record<string, string> = {};
  for (const [variable, column] of Object.entries(upload.variablesMap)) {
    const index = upload.setup.header.indexOf(column);
    if (index >= 0) custom[variable] = preview[index] ?? '';
  }
  try {
    const r = await (
      await client()
    ).startIndividualCall({
      name: custom.callee_name ?? 'Test call',
      mobile_number: number.e164,
      agent_id: s.agentId,
      ...source,
      custom_args_values: custom,
      call_config: { ...callConfigOf(s), call_time: timing.callTime },
      smart_formatter: { extract_first_name: true, transliteration: s.transliterateNames },
      ...(s.versionId ? { version_id: s.versionId } : {}),
      ...(s.callbackUrl.trim() ? { callback_url: s.callbackUrl.trim() } : {}),
      ...(req.callbackArgs ? { callback_args: req.callbackArgs } : {}),
    });
    return {
      callId: r.data.call_id,
      status: r.data.call_status ?? r.status,
      ended: false,
      transcript: [],
      calledNumber: number.e164,
      note: timing.note,
    };
  } catch (e) {
    return serviceFailure(e);
  }
}

export async function testCallStatus(
  client: () => Promise<ApiClient>,
  callId: string,
): Promise<ResponseOf<'campaigns:test-call-status'>> {
  try {
    const d = await (await client()).getCallDetails(callId);
    const status = String(d.call_status ?? 'unknown');
    return {
      callId,
      status,
      ended: ENDED.has(status.toLowerCase()),
      transcript: d.transcript.map((t) => ({ speaker: t.speaker, text: t.text })),
    };
  } catch (e) {
    return serviceFailure(e);
  }
}

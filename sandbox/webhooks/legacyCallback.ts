// The per-call callback of an individual call (`callback_url` + `callback_args`): on each status
// change the service POSTs `{status: "success", data: {call_id, status, transcript (a string),
// retry, …}, message: "Call Details"}` (docs: get-started/tutorials/webhooks). Content-Type is not
// set for the receiver: a subscriber who needs one sends it in callback_args.headers.
import type { CallRow } from '../store/types.ts';
import { shapeTranscriptText } from '../variants.ts';
import type { Variants } from '../variants.ts';

/** The event name the delivery log uses for these callbacks (not one of the six webhook types). */
export const legacyCallbackEvent = 'call_status_changed';

function parseObject(json: string | null): Record<string, unknown> | null {
  if (!json) return null;
  try {
    const v: unknown = JSON.parse(json);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function firstNumber(json: string): string | null {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) && typeof v[0] === 'string' ? v[0] : null;
  } catch {
    return null;
  }
}

/** The body for a call that has just moved to `status`. */
export function buildLegacyCallback(
  row: CallRow,
  status: string,
  baseUrl: string,
  variants: Variants,
): Record<string, unknown> {
  const analysis = parseObject(row.analysis);
  return {
    status: 'success',
    data: {
      call_id: row.id,
      call_direction: row.call_direction,
      status,
      call_duration: row.call_duration ?? 0,
      recording_url: row.recording_token ? `${baseUrl}/recordings/${row.recording_token}` : null,
      transcript: shapeTranscriptText(row.transcript, variants) ?? '',
      agent_id: row.agent_id,
      retry: Math.max(0, row.attempt_count - 1),
      from_number: firstNumber(row.from_numbers),
      to_number: row.to_number,
      custom_args_values: parseObject(row.custom_args_values) ?? {},
      ...(analysis ? { analysis } : {}),
    },
    message: 'Call Details',
  };
}

import type { CallRecord } from '../../shared/service/history.ts';
import type { CallRow } from '../store/types.ts';
import { defaultVariants, formatTimestamp, shapeTranscriptText } from '../variants.ts';
import type { Variants } from '../variants.ts';

function parseList(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

/**
 * A stored call as the history operation serves it: the seed's "Call record" fields only (the docs'
 * sample row has no `bulk_list_id`; campaign membership comes from the `bulk_list_id` filter).
 */
export function toWireCallRecord(
  row: CallRow,
  baseUrl: string,
  variants: Variants = defaultVariants,
): CallRecord {
  const at = (ms: number | null) => (ms === null ? null : formatTimestamp(ms, variants));
  return {
    id: row.id,
    to_number: row.to_number,
    name: row.name ?? row.callee_name ?? '',
    status: row.status,
    sub_status: row.sub_status,
    transcript: shapeTranscriptText(row.transcript, variants),
    audio_recording: row.recording_token ? `${baseUrl}/recordings/${row.recording_token}` : null,
    created_at: formatTimestamp(row.created_at, variants),
    agent: {
      id: row.agent_id,
      agent_name: row.agent_name,
      agent_version_id: row.agent_version_id,
      orchestration_mode: row.orchestration_mode,
      version: { version_id: row.agent_version_id, version_slug: row.version_slug },
    },
    call_duration: row.call_duration ?? 0,
    call_attempt_time: at(row.call_attempt_time),
    call_cost: row.call_cost ?? 0,
    call_type: row.call_type,
    inbound_from: row.inbound_from,
    credits_processed: row.credits_processed === 1,
    from_numbers: parseList(row.from_numbers),
    voicemail_detected: row.voicemail_detected === 1,
  };
}

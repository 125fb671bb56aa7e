import type { CallRecord } from '../../shared/service/history.ts';
import type { CallRow } from '../store/types.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function parseList(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

/** A stored call as the history operation serves it (seed, "Call record"). */
export function toWireCallRecord(row: CallRow, baseUrl: string): CallRecord {
  return {
    id: row.id,
    to_number: row.to_number,
    name: row.name ?? row.callee_name ?? '',
    status: row.status,
    sub_status: row.sub_status,
    transcript: row.transcript,
    audio_recording: row.recording_token ? `${baseUrl}/recordings/${row.recording_token}` : null,
    created_at: new Date(row.created_at).toISOString(),
    agent: {
      id: row.agent_id,
      agent_name: row.agent_name,
      agent_version_id: row.agent_version_id,
      orchestration_mode: row.orchestration_mode,
      version: { version_id: row.agent_version_id, version_slug: row.version_slug },
    },
    call_duration: row.call_duration ?? 0,
    call_attempt_time: iso(row.call_attempt_time),
    call_cost: row.call_cost ?? 0,
    call_type: row.call_type,
    inbound_from: row.inbound_from,
    credits_processed: row.credits_processed === 1,
    from_numbers: parseList(row.from_numbers),
    voicemail_detected: row.voicemail_detected === 1,
    bulk_list_id: row.bulk_list_id,
  };
}

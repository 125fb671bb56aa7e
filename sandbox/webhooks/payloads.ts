// Webhook bodies of the six event types (notes §6): the common fields plus each type's own. Built
// from a snapshot of the call the dialer takes at the moment of the event.
import type { EventType } from '../../shared/service/enums.ts';

export type Turn = Record<string, string>;

/** Everything any payload needs about one call at one moment. */
export interface CallFacts {
  callId: string;
  /** The provider's id of the attempt. */
  callSid: string;
  agentId: string;
  agentName: string | null;
  versionId: string | null;
  versionSlug: string | null;
  versionDescription: string | null;
  workspaceId: string;
  customArgsValues: Record<string, unknown>;
  toNumber: string;
  fromNumber: string | null;
  bulkListId: string | null;
  callType: string;
  status: string;
  subStatus: string | null;
  callDuration: number;
  /** Credits; null until computed (before the call ends). */
  callCost: number | null;
  /** When the attempt was placed, UTC ISO. */
  calledOn: string | null;
  retryCount: number;
  voicemailDetected: boolean;
  transcript: Turn[] | null;
  recordingUrl: string | null;
  recordingDuration: number | null;
  platformAnalysis: Record<string, unknown> | null;
  clientAnalysis: Record<string, unknown> | null;
  latencySeconds: number | null;
  firstUtteranceSeconds: number | null;
}

function common(eventType: EventType, f: CallFacts) {
  return {
    event_type: eventType,
    call_id: f.callId,
    call_sid: f.callSid,
    agent_id: f.agentId,
    workspace_id: f.workspaceId,
    custom_args_values: f.customArgsValues,
    agent_name: f.agentName,
    version_id: f.versionId,
    call_cost: f.callCost,
    overall_latency_seconds: f.latencySeconds,
    first_utterance_seconds: f.firstUtteranceSeconds,
    tool_call_logs: [],
  };
}

/** The attempt's length, message counts and line: call_completed and all_processing_completed share them. */
function attemptSummary(f: CallFacts) {
  let agent = 0;
  let user = 0;
  for (const t of f.transcript ?? []) {
    if ('bot' in t) agent++;
    else if ('user' in t) user++;
  }
  return {
    call_duration: f.callDuration,
    agent_message_count: agent,
    user_message_count: user,
    call_type: f.callType,
    to_number: f.toNumber,
    from_number: f.fromNumber,
    bulk_list_id: f.bulkListId,
  };
}

/**
 * call_completed's `status` is one of the three documented values. An attempt whose call was
 * cancelled as it ended (the campaign window closed, so no retry can follow) is reported `failed`
 * _(chosen)_; the row and call details still say `cancelled`/`CAMPAIGN_TIME_EXCEEDED`.
 */
export function attemptStatus(status: string): 'completed' | 'failed' | 'retry' {
  return status === 'completed' || status === 'retry' ? status : 'failed';
}

export function buildPayload(eventType: EventType, f: CallFacts): Record<string, unknown> {
  const base = common(eventType, f);
  switch (eventType) {
    // The docs' call_started sample has no numbers, bulk_list_id or retry_count.
    case 'call_started':
      return {
        ...base,
        sub_status: 'ACCEPTED',
        version_slug: f.versionSlug,
        version_description: f.versionDescription,
      };
    // The docs' call_completed: status completed, failed or retry; no sub_status.
    case 'call_completed':
      return {
        ...base,
        ...attemptSummary(f),
        status: attemptStatus(f.status),
        called_on: f.calledOn,
        transcript: f.transcript ?? [],
        retry_count: f.retryCount,
      };
    case 'recording_completed':
      return { ...base, recording_url: f.recordingUrl, recording_duration: f.recordingDuration };
    case 'platform_analysis_completed':
      return { ...base, analysis_data: f.platformAnalysis };
    case 'client_analysis_completed':
      return { ...base, analysis_data: f.clientAnalysis };
    case 'all_processing_completed':
      return {
        ...base,
        status: f.status,
        sub_status: f.subStatus,
        ...attemptSummary(f),
        called_on: f.calledOn,
        retry_count: f.retryCount,
        voicemail_detected: f.voicemailDetected,
        transcript: f.transcript ?? [],
        recording_url: f.recordingUrl,
        platform_analysis: f.platformAnalysis,
        client_analysis: f.clientAnalysis,
        platform_analysis_status: f.platformAnalysis ? 'completed' : 'not_applicable',
        client_analysis_status: f.clientAnalysis ? 'completed' : 'not_applicable',
      };
  }
}

import { describe, expect, it } from 'vitest';
import { callStatuses, callSubStatuses } from '../service/enums.ts';
import {
  CALL_OUTCOMES,
  OUTCOME_TABLE,
  OUTCOME_TEXT,
  SUB_STATUS_TEXT,
  outcomeOf,
  statusText,
  subStatusText,
} from './callOutcome.ts';

describe('call outcome table', () => {
  it('gives every status × sub-status pair of the interface (and no sub-status) one known outcome', () => {
    expect(callStatuses).toHaveLength(8);
    expect(callSubStatuses).toHaveLength(22);
    for (const status of callStatuses)
      for (const sub of [...callSubStatuses, null]) {
        const o = outcomeOf(status, sub);
        expect(CALL_OUTCOMES, `${status} × ${sub}`).toContain(o);
        expect(OUTCOME_TEXT[o]).toMatch(/^[A-Z]/);
      }
    // The table names only the interface's sub-statuses.
    for (const row of Object.values(OUTCOME_TABLE))
      for (const sub of Object.keys(row.bySubStatus)) expect(callSubStatuses).toContain(sub);
  });

  it('reads the pairs an operator meets as they mean', () => {
    expect(outcomeOf('cancelled', 'USER_TERMINATED')).toBe('not_called_terminated');
    expect(OUTCOME_TEXT.not_called_terminated).toBe('Not called (terminated)');
    expect(outcomeOf('cancelled', 'DND_SKIPPED')).toBe('dnd_skipped');
    expect(outcomeOf('cancelled', 'CAMPAIGN_TIME_EXCEEDED')).toBe('not_called_time_up');
    expect(outcomeOf('registered', 'IN_DB')).toBe('queued');
    expect(outcomeOf('registered', 'RATE_LIMITED')).toBe('queued');
    expect(outcomeOf('retry', 'RETRY_SCHEDULED')).toBe('retrying');
    expect(outcomeOf('ongoing', 'ACCEPTED')).toBe('in_progress');
    expect(outcomeOf('completed', 'ACCEPTED')).toBe('completed');
    expect(outcomeOf('completed', 'ACCEPTED', true)).toBe('voicemail');
    expect(outcomeOf('completed', 'VOICEMAIL_DETECTED_VIA_LLM')).toBe('voicemail');
    expect(outcomeOf('failed', 'USER_DID_NOT_JOIN')).toBe('no_answer');
    expect(outcomeOf('failed', 'RETRY_LIMIT_REACHED')).toBe('no_answer');
    expect(outcomeOf('failed', 'NOT_ABLE_TO_CALL')).toBe('busy');
    expect(outcomeOf('error', 'PRE_CALL_API_FAILED')).toBe('failed');
    expect(outcomeOf('forwarded', 'ACCEPTED')).toBe('completed');
    // A code the interface does not list keeps the status's outcome; an unknown status is "other".
    expect(outcomeOf('failed', 'PIPECAT_TIMEOUT')).toBe('failed');
    expect(outcomeOf('paused', null)).toBe('other');
  });

  it('has plain words for each of the 22 sub-statuses, never the raw code', () => {
    for (const sub of callSubStatuses) {
      const text = SUB_STATUS_TEXT[sub];
      expect(text, sub).toMatch(/^[A-Z][a-z]/);
      expect(text).not.toMatch(/_/);
      expect(subStatusText(sub)).toBe(text);
    }
    expect(subStatusText('DND_SKIPPED')).toBe('Skipped: number on Do Not Disturb');
    expect(subStatusText('IN_DB')).not.toBe('In db');
    expect(subStatusText('PIPECAT_TIMEOUT')).toBe('Pipecat timeout');
    expect(statusText('registered')).toBe('Queued');
  });
});

import { describe, expect, it } from 'vitest';
import { callColumns, columnsBatch } from '../../sync/callRow.ts';
import { CALL_COLUMNS, callValues, storedCallRow } from './callsTable.ts';

describe('callValues', () => {
  it('binds the insert positionally with what storedCallRow names, in CALL_COLUMNS order', () => {
    const c = callColumns({
      id: 'call-1',
      to_number: '+919812345678',
      name: 'Meera Nair',
      status: 'completed',
      sub_status: 'ACCEPTED',
      created_at: '2026-11-20T10:00:00Z',
      call_attempt_time: '2026-11-20T10:00:05Z',
      call_duration: 42,
      call_cost: 1,
      voicemail_detected: true,
      agent: { id: 'agent-1', agent_name: 'Reminder' },
      transcript: 'unreadable',
    });
    const named = storedCallRow(c, 'ws-1', 'bulk-1', '2026-11-27T00:00:00.000Z');
    expect(callValues(columnsBatch([c]), 0, 'ws-1', 'bulk-1', '2026-11-27T00:00:00.000Z')).toEqual(
      CALL_COLUMNS.map((k) => named[k]),
    );
  });
});

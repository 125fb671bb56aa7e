import { describe, expect, it } from 'vitest';
import { callColumns, columnsBatch, rowAt } from './callRow.ts';

const row = (id: string, extra: Record<string, unknown> = {}) =>
  callColumns({
    id,
    to_number: '+919812345678',
    name: 'Meera Nair',
    status: 'completed',
    sub_status: 'ACCEPTED',
    created_at: '2026-11-20T10:00:00Z',
    call_attempt_time: '2026-11-20T10:00:05Z',
    call_duration: 42,
    call_cost: 1,
    voicemail_detected: false,
    agent: { id: 'agent-1', agent_name: 'Reminder' },
    transcript: JSON.stringify([{ bot: 'Hello' }, { user: 'Yes' }]),
    audio_recording: 'http://127.0.0.1/recordings/a.wav',
    ...extra,
  });

describe('columnsBatch', () => {
  it('keeps every field of every row: row i of the batch is row i', () => {
    const rows = [
      row('a'),
      row('b', { transcript: 'not turns', to_number: null }),
      row('c', { call_cost: null }),
    ];
    const batch = columnsBatch(rows.slice(0, 2));
    columnsBatch(rows.slice(2), batch); // appended, as pages are joined
    expect(batch.id).toEqual(['a', 'b', 'c']);
    rows.forEach((r, i) => expect(rowAt(batch, i)).toStrictEqual(r));
  });
});

import type { Db } from './db.ts';
import type { RecordingRow, StartAttemptRow, WebhookDeliveryRow } from './types.ts';

/** Every campaign start attempt, accepted or refused (the control API's stats count them). */
export function createStartLog(db: Db) {
  return {
    record(a: Omit<StartAttemptRow, 'id'>): void {
      db.prepare(
        `INSERT INTO start_attempts (bulk_list_id, endpoint, outcome, reason, status_code, at)
         VALUES (@bulk_list_id, @endpoint, @outcome, @reason, @status_code, @at)`,
      ).run(a);
    },
    perList(): Array<{
      bulk_list_id: string;
      accepted: number;
      refused: number;
      refused_already_started: number;
    }> {
      return db
        .prepare<
          [],
          { bulk_list_id: string; accepted: number; refused: number; refused_already_started: number }
        >(
          `SELECT bulk_list_id,
                  sum(outcome = 'accepted') AS accepted,
                  sum(outcome = 'refused') AS refused,
                  sum(outcome = 'refused' AND reason = 'already_started') AS refused_already_started
           FROM start_attempts GROUP BY bulk_list_id ORDER BY min(id)`,
        )
        .all();
    },
    all: (): StartAttemptRow[] =>
      db.prepare<[], StartAttemptRow>('SELECT * FROM start_attempts ORDER BY id').all(),
  };
}

/** The webhook delivery log (sandbox/webhooks writes it; stats reads it). */
export function createDeliveryLog(db: Db) {
  return {
    insert(d: Omit<WebhookDeliveryRow, 'id'>): number {
      const res = db
        .prepare(
          `INSERT INTO webhook_deliveries (call_id, event_type, source, target_url, method, request_headers, payload,
             attempt, status, response_status, error, scheduled_at, attempted_at, created_at)
           VALUES (@call_id, @event_type, @source, @target_url, @method, @request_headers, @payload,
             @attempt, @status, @response_status, @error, @scheduled_at, @attempted_at, @created_at)`,
        )
        .run(d);
      return Number(res.lastInsertRowid);
    },
    update(id: number, patch: Partial<Omit<WebhookDeliveryRow, 'id'>>): void {
      const cols = Object.keys(patch);
      if (cols.length === 0) return;
      db.prepare(
        `UPDATE webhook_deliveries SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`,
      ).run({
        ...patch,
        id,
      });
    },
    /** Newest last; at most `limit` rows (the most recent ones). */
    recent(limit: number): WebhookDeliveryRow[] {
      return db
        .prepare<[number], WebhookDeliveryRow>(
          'SELECT * FROM (SELECT * FROM webhook_deliveries ORDER BY id DESC LIMIT ?) ORDER BY id',
        )
        .all(limit);
    },
    count: (): number =>
      db.prepare<[], { n: number }>('SELECT count(*) AS n FROM webhook_deliveries').get()?.n ?? 0,
  };
}

export function createRecordingStore(db: Db) {
  return {
    insert(r: RecordingRow): void {
      db.prepare(
        `INSERT INTO recordings (token, call_id, file_path, content_type, size_bytes, duration_seconds, created_at, expires_at)
         VALUES (@token, @call_id, @file_path, @content_type, @size_bytes, @duration_seconds, @created_at, @expires_at)`,
      ).run(r);
    },
    get: (token: string): RecordingRow | undefined =>
      db.prepare<[string], RecordingRow>('SELECT * FROM recordings WHERE token = ?').get(token),
    forCall: (callId: string): RecordingRow[] =>
      db
        .prepare<[string], RecordingRow>('SELECT * FROM recordings WHERE call_id = ? ORDER BY created_at')
        .all(callId),
  };
}

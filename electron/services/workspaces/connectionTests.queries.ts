import { prepared, query, readStream, writeTransaction } from '../db/define.ts';

export interface ConnectionTestRecord {
  workspaceId: string;
  baseUrl: string;
  at: string;
  ok: boolean;
  message: string;
  credits: number | null;
  serviceWorkspaceName: string | null;
}

interface TestRow {
  id: number;
  workspace_id: string;
  base_url: string;
  tested_at: string;
  ok: 0 | 1;
  message: string;
  credits: number | null;
  service_workspace_name: string | null;
}

const toRecord = (r: TestRow): ConnectionTestRecord => ({
  workspaceId: r.workspace_id,
  baseUrl: r.base_url,
  at: r.tested_at,
  ok: r.ok === 1,
  message: r.message,
  credits: r.credits,
  serviceWorkspaceName: r.service_workspace_name,
});

/** The log keeps the latest results per workspace; older ones are pruned on insert. */
export const KEEP_TESTS_PER_WORKSPACE = 20;

export const connectionTestQueries = {
  'connectionTests.record': query((db, test: ConnectionTestRecord) =>
    writeTransaction(db, () => {
      prepared(
        db,
        `INSERT INTO connection_tests (workspace_id, base_url, tested_at, ok, message, credits, service_workspace_name)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        test.workspaceId,
        test.baseUrl,
        test.at,
        test.ok ? 1 : 0,
        test.message,
        test.credits,
        test.serviceWorkspaceName,
      );
      prepared(
        db,
        `DELETE FROM connection_tests WHERE workspace_id = ? AND id NOT IN (
           SELECT id FROM connection_tests WHERE workspace_id = ? ORDER BY id DESC LIMIT ?)`,
      ).run(test.workspaceId, test.workspaceId, KEEP_TESTS_PER_WORKSPACE);
    }),
  ),

  'connectionTests.recent': query(
    (db, args: { workspaceId: string; limit: number }): ConnectionTestRecord[] =>
      prepared<[string, number], TestRow>(
        db,
        `SELECT * FROM connection_tests WHERE workspace_id = ? ORDER BY id DESC LIMIT ?`,
      )
        .all(args.workspaceId, args.limit)
        .map(toRecord),
  ),

  /** The whole log, oldest first, in batches (keyset paging on id): for a diagnostics export. */
  'connectionTests.all': readStream(function* (db, args: { batchSize: number }) {
    let after = 0;
    for (;;) {
      const rows = prepared<[number, number], TestRow>(
        db,
        `SELECT * FROM connection_tests WHERE id > ? ORDER BY id LIMIT ?`,
      ).all(after, args.batchSize);
      if (rows.length === 0) return;
      after = rows[rows.length - 1]!.id;
      yield rows.map(toRecord);
    }
  }),
};

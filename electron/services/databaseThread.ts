/**
 * The database worker thread's entry: serves one lane (db/worker.ts) with every domain's named
 * queries (queries.ts). It lives here, not in `db/`, because it is the one place that knows all
 * domains; `db/client.ts` starts it by URL.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { AnyQuery } from './db/worker.ts';
import { serveDatabase } from './db/worker.ts';
import type { DbWorkerData } from './db/protocol.ts';
import { queries } from './queries.ts';

const data = workerData as DbWorkerData | undefined;
if (parentPort && data?.role === 'campaign-desk-db') {
  serveDatabase(parentPort, data, queries as unknown as Record<string, AnyQuery>);
}

import { createAgentStore, createNumberStore } from './agents.ts';
import { createBulkListStore } from './bulkLists.ts';
import { createCallStore } from './calls.ts';
import type { Db } from './db.ts';
import { createDeliveryLog, createRecordingStore, createStartLog } from './logs.ts';
import { createMetaStore, createWorkspaceStore } from './workspace.ts';

export type { Db } from './db.ts';
export { openDatabase } from './db.ts';
export * from './types.ts';
export type { HistoryFilter } from './calls.ts';

/** Named queries over the sandbox database, one group per table. */
export function createStore(db: Db) {
  return {
    db,
    meta: createMetaStore(db),
    workspace: createWorkspaceStore(db),
    agents: createAgentStore(db),
    numbers: createNumberStore(db),
    bulkLists: createBulkListStore(db),
    calls: createCallStore(db),
    starts: createStartLog(db),
    deliveries: createDeliveryLog(db),
    recordings: createRecordingStore(db),
  };
}
export type Store = ReturnType<typeof createStore>;

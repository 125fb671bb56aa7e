import type { QueryDef, StreamDef } from './db/define.ts';
import { agentsQueries } from './db/queries/agents.ts';
import { campaignsQueries } from './db/queries/campaigns.ts';
import { callQuarantineQueries } from './db/queries/callQuarantine.ts';
import { callReviewQueries } from './db/queries/callReviews.ts';
import { callsQueries } from './db/queries/calls.ts';
import { connectionTestQueries } from './db/queries/connectionTests.ts';
import { contactBulkQueries } from './contacts/bulk/bulk.queries.ts';
import { contactEditsQueries } from './contacts/edits.queries.ts';
import { contactExportQueries } from './contacts/export.queries.ts';
import { contactImportQueries } from './contacts/import.queries.ts';
import { contactListsQueries } from './contacts/lists.queries.ts';
import { contactPagingQueries } from './contacts/paging.queries.ts';
import { diagnosticsQueries } from './db/queries/diagnostics.ts';
import { settingsQueries } from './db/queries/settings.ts';
import { suppressionQueries } from './db/queries/suppression.ts';
import { workspaceQueries } from './db/queries/workspaces.ts';

/**
 * Every named query and stream the database worker answers. Each domain owns its SQL in
 * `<domain>/*.queries.ts` (exporting `<name>Queries`, names prefixed `<domain>.`) and adds it here
 * with one line. This registry sits outside `db/` so that `db/` imports no domain.
 */
export const queries = {
  ...workspaceQueries,
  ...settingsQueries,
  ...connectionTestQueries,
  ...diagnosticsQueries,
  ...contactListsQueries,
  ...contactImportQueries,
  ...contactPagingQueries,
  ...contactEditsQueries,
  ...contactExportQueries,
  ...agentsQueries,
  ...contactBulkQueries,
  ...campaignsQueries,
  ...callsQueries,
  ...callQuarantineQueries,
  ...callReviewQueries,
  ...suppressionQueries,
};

export type Queries = typeof queries;

export type QueryName = {
  [K in keyof Queries]: Queries[K]['kind'] extends 'query' ? K : never;
}[keyof Queries];
export type StreamName = {
  [K in keyof Queries]: Queries[K]['kind'] extends 'stream' ? K : never;
}[keyof Queries];
export type QueryArgs<K extends keyof Queries> =
  Queries[K] extends QueryDef<infer A, unknown>
    ? A
    : Queries[K] extends StreamDef<infer A, unknown>
      ? A
      : never;
export type QueryResult<K extends QueryName> = Queries[K] extends QueryDef<never, infer R> ? R : never;
export type StreamRow<K extends StreamName> = Queries[K] extends StreamDef<never, infer R> ? R : never;

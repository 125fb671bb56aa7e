import type { QueryDef, StreamDef } from './db/define.ts';
import { agentsQueries } from './agents/agents.queries.ts';
import { campaignCacheQueries } from './campaigns/cache.queries.ts';
import { campaignDraftQueries } from './campaigns/drafts.queries.ts';
import { campaignLaunchQueries } from './campaigns/launches.queries.ts';
import { campaignOverlapQueries } from './campaigns/overlaps.queries.ts';
import { callsQueries } from './calls/calls.queries.ts';
import { callReviewQueries } from './review/callReviews.queries.ts';
import { connectionTestQueries } from './workspaces/connectionTests.queries.ts';
import { contactBulkQueries } from './contacts/bulk/bulk.queries.ts';
import { contactEditsQueries } from './contacts/edits.queries.ts';
import { contactExportQueries } from './contacts/export.queries.ts';
import { contactImportQueries } from './contacts/import.queries.ts';
import { contactListsQueries } from './contacts/lists.queries.ts';
import { contactPagingQueries } from './contacts/paging.queries.ts';
import { diagnosticsQueries } from './app/diagnostics.queries.ts';
import { settingsQueries } from './settings/settings.queries.ts';
import { suppressionEntryQueries } from './suppression/entries.queries.ts';
import { suppressionOfferQueries } from './suppression/offers.queries.ts';
import { workspaceQueries } from './workspaces/workspaces.queries.ts';

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
  ...campaignLaunchQueries,
  ...campaignOverlapQueries,
  ...campaignDraftQueries,
  ...campaignCacheQueries,
  ...callsQueries,
  ...callReviewQueries,
  ...suppressionEntryQueries,
  ...suppressionOfferQueries,
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

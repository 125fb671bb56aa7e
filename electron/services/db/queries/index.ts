import type { QueryDef, StreamDef } from '../define.ts';
import { agentsQueries } from './agents.ts';
import { campaignsQueries } from './campaigns.ts';
import { callQuarantineQueries } from './callQuarantine.ts';
import { callReviewQueries } from './callReviews.ts';
import { callsQueries } from './calls.ts';
import { connectionTestQueries } from './connectionTests.ts';
import { contactsQueries } from './contacts.ts';
import { contactsBulkQueries } from './contactsBulk.ts';
import { diagnosticsQueries } from './diagnostics.ts';
import { settingsQueries } from './settings.ts';
import { suppressionQueries } from './suppression.ts';
import { workspaceQueries } from './workspaces.ts';

/**
 * Every named query and stream the database worker answers. A domain adds its module
 * (`queries/<domain>.ts` exporting `<domain>Queries`, names prefixed `<domain>.`) with one line here.
 */
export const queries = {
  ...workspaceQueries,
  ...settingsQueries,
  ...connectionTestQueries,
  ...diagnosticsQueries,
  ...contactsQueries,
  ...agentsQueries,
  ...contactsBulkQueries,
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

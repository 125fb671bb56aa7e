// Every named query of the calls domain, one job per file: registered with one line in
// services/queries.ts (names unchanged: `calls.*`, `recordings.*`).
import { callCampaignsQueries } from './campaigns.queries.ts';
import { campaignResultsQueries } from './campaignResults.queries.ts';
import { callQuarantineQueries } from './quarantine.queries.ts';
import { recordingQueries } from './recordings.queries.ts';
import { callSearchQueries } from './search/search.queries.ts';
import { callStatsQueries } from './stats/callStats.queries.ts';
import { callStoreQueries } from './store/store.queries.ts';
import { callSyncStateQueries } from './syncState.queries.ts';

export const callsQueries = {
  ...callStoreQueries,
  ...callSyncStateQueries,
  ...recordingQueries,
  ...callSearchQueries,
  ...callStatsQueries,
  ...callCampaignsQueries,
  ...campaignResultsQueries,
  ...callQuarantineQueries,
};

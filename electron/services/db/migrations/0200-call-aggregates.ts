import { AGGREGATE_TABLES_SQL, installAggregates } from '../callAggregates.ts';
import type { Migration } from './migration.ts';

/**
 * Chart aggregates of the calls (issue 24): per campaign × status pair, × quarter hour of the
 * attempt, × talk time and cost value, × number, kept by triggers on `calls` in the same
 * transaction as each write (callAggregates.ts), and counted here from the calls already stored.
 * The triggers are installed again on open whenever the outcome table they carry changes.
 */
export const migration: Migration = {
  version: 200,
  name: 'call-aggregates',
  up(db) {
    db.exec(AGGREGATE_TABLES_SQL);
    installAggregates(db);
  },
};

import type { Migration } from './migration.ts';

/**
 * The Calls page's agent filter and its list of agents at a million calls (issue 28): nothing
 * indexed a call's agent, so both read every call's row (7–11 s at a million). One index in the
 * list's default order: the filter's first page is an index walk, and each agent's count reads
 * index entries only (calls/search/search.queries.ts `facets`).
 */
export const migration: Migration = {
  version: 220,
  name: 'calls-agent-index',
  up(db) {
    db.exec(`CREATE INDEX calls_ws_agent ON calls (workspace_id, agent_id, created_ms DESC)`);
    // As 0210: beside measured indexes an unmeasured one looks far more selective than it is.
    const measured =
      db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'`).get() !== undefined;
    if (measured) {
      const limit = db.pragma('analysis_limit', { simple: true }) as number;
      db.pragma('analysis_limit = 1000');
      db.exec(`ANALYZE calls_ws_agent`);
      db.pragma(`analysis_limit = ${limit}`);
    }
  },
};

import type { Migration } from './migration.ts';
import { migration as m0010 } from './0010-foundation.ts';
import { migration as m0020 } from './0020-contacts.ts';
import { migration as m0030 } from './0030-agents.ts';
import { migration as m0035 } from './0035-contacts-issue-codes.ts';
import { migration as m0050 } from './0050-calls.ts';
import { migration as m0060 } from './0060-campaigns.ts';
import { migration as m0070 } from './0070-campaign-list-links.ts';
import { migration as m0080 } from './0080-calls-fts-batched.ts';
import { migration as m0090 } from './0090-recordings-by-call-seq.ts';
import { migration as m0100 } from './0100-contact-numbers-pending.ts';
import { migration as m0110 } from './0110-contact-position-marks.ts';
import { migration as m0120 } from './0120-contact-undo-states.ts';
import { migration as m0130 } from './0130-contacts-formula-bidi-codes.ts';
import { migration as m0131 } from './0131-call-quarantine.ts';
import { migration as m0133 } from './0133-campaign-launch-once.ts';
import { migration as m0135 } from './0135-service-refusals.ts';
import { migration as m0150 } from './0150-calls-attempt-time.ts';
import { migration as m0160 } from './0160-call-reviews.ts';
import { migration as m0170 } from './0170-suppression.ts';
import { migration as m0200 } from './0200-call-aggregates.ts';
import { migration as m0210 } from './0210-calls-sort-indexes.ts';
import { migration as m0220 } from './0220-calls-agent-index.ts';
import { migration as m0245 } from './0245-call-rank-counts.ts';

/**
 * Every migration, in order. Add a new one as `NNNN-name.ts` (next multiple of ten) with its own
 * `NNNN-name.test.ts`, and register it here with one line. index.test.ts checks the order and that
 * every file in this folder is registered.
 */
export const migrations: readonly Migration[] = [
  m0010,
  m0020,
  m0030,
  m0035,
  m0050,
  m0060,
  m0070,
  m0080,
  m0090,
  m0100,
  m0110,
  m0120,
  m0130,
  m0131,
  m0133,
  m0135,
  m0150,
  m0160,
  m0170,
  m0200,
  m0210,
  m0220,
  m0245,
];

export const latestSchemaVersion = (list: readonly Migration[] = migrations): number =>
  list.reduce((max, m) => Math.max(max, m.version), 0);

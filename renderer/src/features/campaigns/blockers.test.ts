import { describe, expect, it } from 'vitest';
import type { AgentLint } from '../../../../shared/ipc/channels/agents.ts';
import { launchBlockers, launchNotes, planBlockers } from './blockers.ts';

const lint: AgentLint = {
  unmapped: [],
  emptyColumns: [],
  unusedColumns: ['Notes'],
  uploadRows: 60,
  rowsServiceWillDrop: 0,
  refusalFilter: null,
};
const dueDate = {
  variable: 'due_date',
  column: 'Due Date',
  emptyRows: 3,
  filter: 'empty:5',
  optional: false,
};
const withEmpty: AgentLint = {
  ...lint,
  emptyColumns: [dueDate],
  rowsServiceWillDrop: 3,
  refusalFilter: 'empty:5',
};

describe('launch blockers', () => {
  it('asks for a list, then an agent', () => {
    expect(launchBlockers({ listId: null, agentId: null, removeInvalid: false }, null, null)).toEqual([
      'Choose a contact list.',
    ]);
    expect(launchBlockers({ listId: 1, agentId: null, removeInvalid: false }, null, null)).toEqual([
      'Choose an agent for the list.',
    ]);
  });

  it('has nothing to say about a clean lint (unused columns do not block)', () => {
    expect(
      launchBlockers({ listId: 1, agentId: 'a', removeInvalid: false }, { isLocalDraft: false }, lint),
    ).toEqual([]);
  });

  it('names unmapped variables, empty columns with their counts, local drafts and an empty upload', () => {
    const blockers = launchBlockers(
      { listId: 1, agentId: 'a', removeInvalid: false },
      { isLocalDraft: true },
      { ...withEmpty, unmapped: ['city'], uploadRows: 0 },
    );
    expect(blockers).toEqual([
      'The agent is a local draft: a campaign needs an agent synced from the service.',
      'Variable city has no column: every call would lack it.',
      'Variable due_date: column Due Date is empty in 3 rows to call; fill or exclude them, mark the variable optional, or turn on Remove invalid rows.',
      'The list has no valid row to call.',
    ]);
  });

  it('lets rows with an empty variable go when invalid rows are removed, and says how many the service drops', () => {
    const on = { listId: 1, agentId: 'a', removeInvalid: true };
    expect(launchBlockers(on, null, withEmpty)).toEqual([]);
    expect(launchNotes(on, withEmpty)).toEqual([
      'The service will drop 3 rows with an empty variable (Remove invalid rows is on).',
    ]);
  });

  it('does not block on an optional variable left empty', () => {
    const optional: AgentLint = {
      ...lint,
      emptyColumns: [{ ...dueDate, optional: true }],
      rowsServiceWillDrop: 0,
    };
    const off = { listId: 1, agentId: 'a', removeInvalid: false };
    expect(launchBlockers(off, null, optional)).toEqual([]);
    expect(launchNotes(off, optional)).toEqual([
      'Variable due_date is optional: 3 rows are sent with "-" for it.',
    ]);
  });
});

describe('plan blockers (Launch disabled with the reason)', () => {
  const credits = (available: number | null, source: 'service' | 'cached' | null = 'service') => ({
    needed: 41_000,
    available,
    sufficient: available === null ? null : available >= 41_000,
    checkedAt: null,
    source,
    reason: null,
  });
  it('names both figures and the shortfall when the service reports fewer credits than calls', () => {
    expect(planBlockers({ calls: 41_000, callsNotFitting: 0, credits: credits(25_000) }, false)).toEqual([
      'Not enough credits: this campaign needs 41,000 credits (one a call) and the workspace has 25,000, 16,000 short. Add credits or send fewer rows.',
    ]);
    expect(planBlockers({ calls: 41_000, callsNotFitting: 0, credits: credits(41_000) }, false)).toEqual([]);
  });
  it('does not block on credits not reported now (offline: the service checks before the upload)', () => {
    expect(planBlockers({ calls: 41_000, callsNotFitting: 0, credits: credits(null, null) }, false)).toEqual(
      [],
    );
    expect(
      planBlockers({ calls: 41_000, callsNotFitting: 0, credits: credits(10, 'cached') }, false),
    ).toEqual([]);
  });
  it('blocks calls that do not fit until the shortfall is accepted', () => {
    const plan = { calls: 40_000, callsNotFitting: 32_882, credits: credits(50_000) };
    expect(planBlockers(plan, false)).toEqual([
      '32,882 of 40,000 calls do not fit before the campaign ends: widen the daily window, raise the concurrency or move the end, or accept the shortfall in the plan.',
    ]);
    expect(planBlockers(plan, true)).toEqual([]);
    expect(planBlockers(null, false)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { AgentLint } from '../../../../shared/ipc/channels/agents.ts';
import { launchBlockers, launchNotes } from './blockers.ts';

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

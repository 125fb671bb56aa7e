import { describe, expect, it } from 'vitest';
import { launchBlockers } from './blockers.ts';

const lint = { unmapped: [], emptyColumns: [], unusedColumns: ['Notes'], uploadRows: 60 };

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
      {
        ...lint,
        unmapped: ['city'],
        emptyColumns: [{ variable: 'due_date', column: 'Due Date', emptyRows: 3, filter: 'empty:Due Date' }],
        uploadRows: 0,
      },
    );
    expect(blockers).toEqual([
      'The agent is a local draft: a campaign needs an agent synced from the service.',
      'Variable city has no column: every call would lack it.',
      'Variable due_date: column Due Date is empty in 3 rows to call; fill or exclude them, or turn on Remove invalid rows.',
      'The list has no valid row to call.',
    ]);
  });

  it('lets rows with an empty variable go when invalid rows are removed', () => {
    const withEmpty = {
      ...lint,
      emptyColumns: [{ variable: 'due_date', column: 'Due Date', emptyRows: 3, filter: 'empty:Due Date' }],
    };
    expect(launchBlockers({ listId: 1, agentId: 'a', removeInvalid: true }, null, withEmpty)).toEqual([]);
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import type { AgentMapping, PromptPreview } from '../../../shared/ipc/channels/agents.ts';
import type { Channel } from '../../../shared/ipc/contract.ts';
import { createDeskApi } from '../../../shared/ipc/contract.ts';
import type { Result } from '../../../shared/ipc/result.ts';
import { ok } from '../../../shared/ipc/result.ts';
import { useListAgent } from './listAgentStore.ts';

// The store's own logic (what it asks the back end, how it steps and words a jump) over a scripted
// transport answering with the contract's shapes. The real back end is exercised by e2e/agents.spec.ts.

const mapping: AgentMapping = {
  listId: 7,
  agentId: 'a1',
  versionId: 'v2',
  mapping: [
    { variable: 'mobile_number', column: 'Mobile Number', source: 'phone', optional: false },
    { variable: 'callee_name', column: 'Name', source: 'similar', optional: false },
    { variable: 'due_date', column: '', source: 'none', optional: false },
  ],
  columns: ['Name', 'Mobile Number', 'Due Date'],
};

const previewAt = (pos: number): PromptPreview => ({
  row: pos + 2,
  pos,
  total: 3,
  segments: [{ kind: 'text', text: `row ${pos + 2}` }],
  missing: [],
  firstName: null,
});

let calls: Array<{ channel: Channel; request: Record<string, unknown> }> = [];
let nextProblem: { pos: number | null; row: number | null; missing: string[] } = {
  pos: null,
  row: null,
  missing: [],
};

function answer(channel: Channel, request: Record<string, unknown>): unknown {
  switch (channel) {
    case 'agents:get':
      return { agent: null };
    case 'agents:mapping':
    case 'agents:set-mapping':
      return mapping;
    case 'agents:lint':
      return { unmapped: ['due_date'], emptyColumns: [], unusedColumns: [], uploadRows: 3 };
    case 'agents:preview':
      return previewAt(request.pos as number);
    case 'agents:next-problem-row':
      return nextProblem;
    default:
      throw new Error(`unexpected ${channel}`);
  }
}

beforeEach(() => {
  calls = [];
  nextProblem = { pos: null, row: null, missing: [] };
  const transport = {
    invoke: async (channel: Channel, request: unknown): Promise<Result<unknown>> => {
      calls.push({ channel, request: request as Record<string, unknown> });
      return ok(answer(channel, request as Record<string, unknown>));
    },
    subscribe: () => () => undefined,
  };
  (globalThis as { window?: unknown }).window = { desk: createDeskApi(transport) };
  useListAgent.setState({ listId: null });
});

const sent = (channel: Channel) => calls.filter((c) => c.channel === channel).map((c) => c.request);

describe('the agent of an open list', () => {
  it('maps, lints and previews the first row when an agent is chosen', async () => {
    await useListAgent.getState().open(7);
    await useListAgent.getState().choose('a1');
    const s = useListAgent.getState();
    expect(s.versionId).toBe('v2');
    expect(s.lint?.unmapped).toEqual(['due_date']);
    expect(s.preview?.row).toBe(2);
    expect(sent('agents:preview')).toEqual([
      { listId: 7, agentId: 'a1', versionId: 'v2', filter: 'all', pos: 0 },
    ]);
  });

  it('sends the whole mapping without the phone column when one column changes', async () => {
    await useListAgent.getState().open(7);
    await useListAgent.getState().choose('a1');
    await useListAgent.getState().setColumn('due_date', 'Due Date');
    expect(sent('agents:set-mapping')).toEqual([
      {
        listId: 7,
        agentId: 'a1',
        versionId: 'v2',
        mapping: [
          { variable: 'callee_name', column: 'Name' },
          { variable: 'due_date', column: 'Due Date' },
        ],
      },
    ]);
  });

  it('steps within the rows of the filter and says when no row has a problem', async () => {
    await useListAgent.getState().open(7);
    await useListAgent.getState().choose('a1');
    await useListAgent.getState().step(-1);
    expect(useListAgent.getState().pos).toBe(0);
    await useListAgent.getState().step(1);
    await useListAgent.getState().step(5);
    expect(useListAgent.getState().preview?.row).toBe(4);
    await useListAgent.getState().nextProblem('next');
    expect(useListAgent.getState().problemNote).toBe('No later row has a missing value.');
    nextProblem = { pos: 0, row: 2, missing: ['due_date'] };
    await useListAgent.getState().nextProblem('previous');
    expect(useListAgent.getState().problemNote).toBe('Row 2: due_date missing.');
    expect(useListAgent.getState().preview?.row).toBe(2);
    expect(sent('agents:next-problem-row').at(-1)).toMatchObject({ fromPos: 2, direction: 'previous' });
  });
});

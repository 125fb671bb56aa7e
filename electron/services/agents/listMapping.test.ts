import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AgentLint,
  AgentMapping,
  AgentSummary,
  PromptPreview,
} from '../../../shared/ipc/channels/agents.ts';
import type { ContactList, ContactRow, ExportResult } from '../../../shared/ipc/channels/contacts.ts';
import type { Result } from '../../../shared/ipc/result.ts';
import { importThroughService } from '../contacts/testing.ts';
import type { ImportTarget } from '../contacts/testing.ts';
import { createDesk } from '../createDesk.ts';
import type { Desk } from '../createDesk.ts';
import { tempDirs } from '../db/testing.ts';
import { SessionSecretStore } from '../secrets/sessionSecretStore.ts';

// An agent's variables against imported contact lists, through the desk's channels, with the
// built-in sandbox (a worker of the desk, real HTTP) as the Sandbox workspace's service.

const dirs = tempDirs('desk-agent-mapping-');
let desk: Desk;
let dataDir: string;
let loan: AgentSummary;

const value = <T>(r: Result<unknown>): T => {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.value as T;
};

beforeAll(async () => {
  dataDir = dirs.make();
  desk = await createDesk({ dataDir, host: 'browser', version: '1', secrets: new SessionSecretStore() });
  value(await desk.handle('agents:sync', {}));
  const { agents } = value<{ agents: AgentSummary[] }>(await desk.handle('agents:list', {}));
  loan = agents.find((a) => a.name === 'Loan Repayment Reminder')!;
});
afterAll(async () => {
  await desk.close();
  dirs.cleanup();
});

const csv = (lines: string[]) => new TextEncoder().encode(`${lines.join('\n')}\n`);

/** Rows 2–7: Due Date empty in rows 3 and 5 (valid) and 7 (invalid phone, not uploaded). */
const FIRST = csv([
  'Name,Mobile Number,Due Date,Loan Amount,City,Notes',
  'Mr Rajesh Kumar,9876543210,01/12/2026,5000,Pune,vip',
  'Asha Rao,9876543211,,7000,Mumbai,',
  'Dr. Meera Iyer,9876543212,03/12/2026,9000,,late',
  'Vikram Singh,9876543213,  ,1200,Delhi,',
  'Neha Gupta,9876543214,05/12/2026,3000,Chennai,',
  'Bad Phone,12,,100,Goa,',
]);

async function importList(bytes: Uint8Array, name: string): Promise<ContactList> {
  const target: ImportTarget = {
    importBegin: async (req) => value(await desk.handle('contacts:import-begin', req)),
    importBatch: async (req) => value(await desk.handle('contacts:import-batch', req)),
    importFinish: async (req) => value(await desk.handle('contacts:import-finish', req)),
  };
  return (await importThroughService(target, bytes, { name })).list;
}

const mappingOf = (m: AgentMapping) =>
  Object.fromEntries(m.mapping.map((v) => [v.variable, [v.column, v.source]]));

describe('an agent against a contact list', () => {
  let list: ContactList;
  beforeAll(async () => {
    list = await importList(FIRST, 'first');
  });

  it('auto-maps exact, then loosely named columns; the phone column is fixed; the rest unmapped', async () => {
    const m = value<AgentMapping>(await desk.handle('agents:mapping', { listId: list.id, agentId: loan.id }));
    expect(m.versionId).toBe(loan.activeVersionId);
    expect(m.columns).toEqual(['Name', 'Mobile Number', 'Due Date', 'Loan Amount', 'City', 'Notes']);
    expect(mappingOf(m)).toEqual({
      mobile_number: ['Mobile Number', 'phone'],
      callee_name: ['Name', 'similar'],
      loan_amount: ['Loan Amount', 'similar'],
      due_date: ['Due Date', 'similar'],
      language: ['', 'none'],
      city: ['City', 'similar'],
    });
  });

  it('lints from SQLite: unmapped placeholders, columns empty in upload rows, unused columns; right after edit and undo', async () => {
    const lint = async () =>
      value<AgentLint>(await desk.handle('agents:lint', { listId: list.id, agentId: loan.id }));
    const first = await lint();
    expect(first.unmapped).toEqual(['language']);
    expect(first.uploadRows).toBe(5);
    expect(first.emptyColumns).toEqual([
      { variable: 'due_date', column: 'Due Date', emptyRows: 2, filter: 'empty:2', optional: false },
      { variable: 'city', column: 'City', emptyRows: 1, filter: 'empty:4', optional: false },
    ]);
    // The rows the service refuses: 3 and 5 (Due Date) and 4 (City), each once; the filter checks
    // every mapped, non-optional column (Name, Due Date, Loan Amount, City).
    expect(first.rowsServiceWillDrop).toBe(3);
    expect(first.refusalFilter).toBe('empty:0,2,3,4');
    expect(first.unusedColumns).toEqual(['Notes']);

    // The lint's filter shows exactly those rows in the grid.
    const rows = value<{ total: number; rows: ContactRow[] }>(
      await desk.handle('contacts:rows', { listId: list.id, filter: 'empty:2', offset: 0, limit: 50 }),
    );
    expect(rows.total).toBe(2);
    expect(rows.rows.map((r) => r.row)).toEqual([3, 5]);

    const dueEmpty = async () =>
      (await lint()).emptyColumns.find((e) => e.variable === 'due_date')?.emptyRows ?? 0;
    value(
      await desk.handle('contacts:edit-cell', { listId: list.id, row: 3, column: 2, value: '09/12/2026' }),
    );
    expect(await dueEmpty()).toBe(1);
    value(await desk.handle('contacts:undo', { listId: list.id }));
    expect(await dueEmpty()).toBe(2);
    value(await desk.handle('contacts:set-excluded', { listId: list.id, rows: [5], excluded: true }));
    expect(await dueEmpty()).toBe(1);
    expect((await lint()).uploadRows).toBe(4);
    value(await desk.handle('contacts:undo', { listId: list.id }));
    expect(await lint()).toEqual(first);
  });

  it('previews a row with values substituted, missing ones flagged, and the first name the service would use', async () => {
    const p = value<PromptPreview>(
      await desk.handle('agents:preview', {
        listId: list.id,
        agentId: loan.id,
        filter: 'all',
        pos: 0,
        extractFirstName: true,
      }),
    );
    expect(p).toMatchObject({
      row: 2,
      pos: 0,
      total: 6,
      firstName: { original: 'Mr Rajesh Kumar', used: 'Rajesh' },
    });
    const values = p.segments.filter((s) => s.kind === 'value');
    expect(values).toEqual(
      expect.arrayContaining([
        { kind: 'value', name: 'callee_name', column: 'Name', value: 'Rajesh' },
        { kind: 'value', name: 'due_date', column: 'Due Date', value: '01/12/2026' },
        { kind: 'value', name: 'city', column: 'City', value: 'Pune' },
      ]),
    );
    expect(p.segments).toContainEqual({ kind: 'missing', name: 'language', column: null });
    expect(p.missing).toEqual(['language']);

    const plain = value<PromptPreview>(
      await desk.handle('agents:preview', { listId: list.id, agentId: loan.id, filter: 'empty:4', pos: 0 }),
    );
    expect(plain).toMatchObject({ row: 4, total: 1, firstName: null });
    expect(plain.segments).toContainEqual({
      kind: 'value',
      name: 'callee_name',
      column: 'Name',
      value: 'Dr. Meera Iyer',
    });
    expect(plain.segments).toContainEqual({ kind: 'missing', name: 'city', column: 'City' });
    expect(
      await desk.handle('agents:preview', { listId: list.id, agentId: loan.id, filter: 'all', pos: 99 }),
    ).toMatchObject({
      ok: false,
      error: { code: 'not_found', field: 'pos' },
    });
  });

  it('steps to the next and previous row with a missing value', async () => {
    const step = async (fromPos: number, direction: 'next' | 'previous' = 'next', filter = 'all') =>
      value<{ pos: number | null; row: number | null; missing: string[] }>(
        await desk.handle('agents:next-problem-row', {
          listId: list.id,
          agentId: loan.id,
          filter,
          fromPos,
          direction,
        }),
      );
    expect(await step(-1)).toEqual({ pos: 1, row: 3, missing: ['due_date'] });
    const rows: Array<number | null> = [];
    for (let at = await step(-1); at.pos !== null; at = await step(at.pos)) rows.push(at.row);
    // Row 7's number is invalid, but 'all' shows it; row 6 has everything.
    expect(rows).toEqual([3, 4, 5, 7]);
    expect(await step(5, 'previous')).toEqual({ pos: 3, row: 5, missing: ['due_date'] });
    expect(await step(1, 'previous')).toEqual({ pos: null, row: null, missing: [] });
    // Within a filter, positions are the filter's: valid rows are 2–6, so row 4 is at 2.
    expect(await step(1, 'next', 'bucket:valid')).toEqual({ pos: 2, row: 4, missing: ['city'] });
  });

  it('remembers the operator’s mapping per agent and seeds the next list with it', async () => {
    const saved = value<AgentMapping>(
      await desk.handle('agents:set-mapping', {
        listId: list.id,
        agentId: loan.id,
        mapping: [{ variable: 'language', column: 'Notes' }],
      }),
    );
    expect(mappingOf(saved).language).toEqual(['Notes', 'manual']);
    expect(mappingOf(saved).due_date).toEqual(['Due Date', 'similar']);
    const bad = await desk.handle('agents:set-mapping', {
      listId: list.id,
      agentId: loan.id,
      mapping: [{ variable: 'city', column: 'Nope' }],
    });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_request', field: 'mapping.0.column' } });

    const second = await importList(
      csv(['Customer,Phone,due_date,Notes', 'Asha,9876500001,01/01/2027,hi']),
      'second',
    );
    const m = value<AgentMapping>(
      await desk.handle('agents:mapping', { listId: second.id, agentId: loan.id }),
    );
    expect(mappingOf(m)).toMatchObject({
      mobile_number: ['Phone', 'phone'],
      due_date: ['due_date', 'exact'],
      language: ['Notes', 'last-list'],
      loan_amount: ['', 'none'],
    });
  });

  it('exports the upload with the mapped columns under clean names, and derives variables_map', async () => {
    const vm = value<{ variablesMap: Record<string, string>; uploadColumns: string[] }>(
      await desk.handle('agents:variables-map', { listId: list.id, agentId: loan.id }),
    );
    expect(vm.variablesMap).toEqual({
      mobile_number: 'Mobile Number',
      callee_name: 'Name',
      loan_amount: 'Loan Amount',
      due_date: 'Due Date',
      language: 'Notes',
      city: 'City',
    });
    expect(vm.uploadColumns).toEqual(['Name', 'Loan Amount', 'Due Date', 'Notes', 'City']);
    const out = join(dataDir, 'agent-upload.csv');
    const exported = value<ExportResult>(
      await desk.handle('contacts:export', { listId: list.id, kind: 'upload', path: out, agentId: loan.id }),
    );
    expect(exported.variablesMap).toEqual(vm.variablesMap);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(lines[0]).toBe('Mobile Number,Name,Loan Amount,Due Date,Notes,City');
    expect(lines[1]).toBe('+919876543210,Mr Rajesh Kumar,5000,01/12/2026,vip,Pune');
    expect(lines).toHaveLength(1 + exported.rows);
    expect(
      await desk.handle('contacts:export', { listId: list.id, kind: 'rejects', path: out, agentId: loan.id }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_request', field: 'agentId' } });
  });

  it('maps a local draft agent from its placeholders', async () => {
    const draft = value<{ agent: { id: string } }>(
      await desk.handle('agents:create-draft', {
        name: 'Draft',
        prompt: 'Hi @{{callee_name}}, due @{{Due_Date}} in @{{CITY}}',
      }),
    ).agent;
    const m = value<AgentMapping>(
      await desk.handle('agents:mapping', { listId: list.id, agentId: draft.id }),
    );
    expect(mappingOf(m)).toMatchObject({
      callee_name: ['Name', 'similar'],
      Due_Date: ['Due Date', 'similar'],
      CITY: ['City', 'similar'],
    });
  });
});

describe('rows the service would refuse: optional variables, the filter, one-click exclusion', () => {
  let list: ContactList;
  const lint = async () =>
    value<AgentLint>(await desk.handle('agents:lint', { listId: list.id, agentId: loan.id }));
  beforeAll(async () => {
    list = await importList(FIRST, 'refusals');
    // language mapped (to Notes: empty in rows 3, 5, 6) so every variable of the agent has a column.
    value(
      await desk.handle('agents:set-mapping', {
        listId: list.id,
        agentId: loan.id,
        mapping: [{ variable: 'language', column: 'Notes' }],
      }),
    );
  });

  it('counts each refused row once and its filter shows exactly those rows', async () => {
    const l = await lint();
    // Due Date: rows 3, 5; City: 4; Notes (language): 3, 5, 6 → rows 3, 4, 5, 6.
    expect(l.rowsServiceWillDrop).toBe(4);
    const rows = value<{ total: number; rows: ContactRow[] }>(
      await desk.handle('contacts:rows', {
        listId: list.id,
        filter: l.refusalFilter as never,
        offset: 0,
        limit: 50,
      }),
    );
    expect([rows.total, rows.rows.map((r) => r.row)]).toEqual([4, [3, 4, 5, 6]]);
  });

  it('an optional variable may be empty: stored per list and agent, sent as "-" in the upload', async () => {
    const m = value<AgentMapping>(
      await desk.handle('agents:set-mapping', {
        listId: list.id,
        agentId: loan.id,
        mapping: [{ variable: 'language', column: 'Notes', optional: true }],
      }),
    );
    expect(m.mapping.find((v) => v.variable === 'language')).toMatchObject({
      column: 'Notes',
      optional: true,
    });
    expect(m.mapping.filter((v) => v.optional).map((v) => v.variable)).toEqual(['language']);
    const l = await lint();
    expect(l.rowsServiceWillDrop).toBe(3);
    expect(l.refusalFilter).toBe('empty:0,2,3,4');
    expect(l.emptyColumns.find((c) => c.variable === 'language')).toMatchObject({
      emptyRows: 3,
      optional: true,
    });
    // Read again (another request), and another list of the same agent starts without it.
    const again = value<AgentMapping>(
      await desk.handle('agents:mapping', { listId: list.id, agentId: loan.id }),
    );
    expect(again.mapping.find((v) => v.variable === 'language')?.optional).toBe(true);
    const other = await importList(FIRST, 'other');
    const fresh = value<AgentMapping>(
      await desk.handle('agents:mapping', { listId: other.id, agentId: loan.id }),
    );
    expect(fresh.mapping.some((v) => v.optional)).toBe(false);

    const out = join(dataDir, 'optional-upload.csv');
    value(
      await desk.handle('contacts:export', { listId: list.id, kind: 'upload', path: out, agentId: loan.id }),
    );
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(lines[0]).toBe('Mobile Number,Name,Loan Amount,Due Date,Notes,City');
    expect(lines[2]).toBe('+919876543211,Asha Rao,7000,,-,Mumbai');
  });

  it('excludes the rows the service would refuse in one click, and Undo brings them back', async () => {
    const before = await lint();
    const columns = before.refusalFilter!.slice(6).split(',').map(Number);
    const done = value<{ list: ContactList; affected: number }>(
      await desk.handle('contacts:bulk', { listId: list.id, action: 'exclude-empty', columns }),
    );
    expect(done.affected).toBe(3);
    expect(done.list.undo).toBe('Exclude 3 rows with an empty variable');
    const after = await lint();
    expect([after.rowsServiceWillDrop, after.refusalFilter, after.uploadRows]).toEqual([0, null, 2]);
    value(await desk.handle('contacts:undo', { listId: list.id }));
    expect(await lint()).toEqual(before);
  });
});

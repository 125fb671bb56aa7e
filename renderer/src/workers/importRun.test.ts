import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUCKET, cleanInMemory, csvCell } from '../../../shared/domain/contacts/index.ts';
import { readImportBatch } from '../../../shared/ipc/channels/contacts.ts';
import type { ImportBatchMeta, ImportChoices } from '../../../shared/ipc/channels/contacts.ts';

type ImportBatchData = ImportBatchMeta & { cells: string[][] };
import type { FromCoordinator, PortLike } from './importMessages.ts';
import { createImportRun } from './importRun.ts';
import { createLaneHandler } from './laneHandler.ts';

// The coordinator and real lane handlers (the engine's block processor) talking over real
// MessageChannels, as in the browser; only the Worker wrappers are left out.

const ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports.splice(0)) p.close();
});

function lanes(n: number): PortLike[] {
  const out: PortLike[] = [];
  for (let i = 0; i < n; i++) {
    const channel = new MessageChannel();
    const handle = createLaneHandler((message, transfer) => channel.port2.postMessage(message, transfer));
    channel.port2.onmessage = (e: MessageEvent) => handle(e.data);
    ports.push(channel.port1, channel.port2);
    out.push(channel.port1 as unknown as PortLike);
  }
  return out;
}

/** A messy file: quoted line breaks and commas, duplicates in other formats, Excel damage, blanks. */
function messyCsv(rows: number, newline = '\n'): string {
  const lines = ['Customer ID,Name,Mobile Number,Loan Amount,Notes'];
  for (let i = 0; i < rows; i++) {
    const n = 9_000_000_000 + ((i * 7919) % 997) * 10_007 + (i % 3);
    const phone =
      i % 17 === 0
        ? ''
        : i % 23 === 0
          ? '9.19877E+11'
          : i % 29 === 0
            ? '12345'
            : i % 11 === 0
              ? `+91 ${String(n).slice(0, 5)} ${String(n).slice(5)}`
              : String(n);
    const name = i % 5 === 0 ? `"Kumar, Ravi ${i}"` : i % 7 === 0 ? '=cmd()' : `Asha ${i}`;
    const notes = i % 13 === 0 ? `"line one${newline}line two, ""quoted"""` : i % 19 === 0 ? '' : `note ${i}`;
    lines.push(`C${i},${name},${phone},${i % 31 === 0 ? '' : `"1,${i % 100},000"`},${notes}`);
    if (i % 97 === 0) lines.push('');
  }
  return lines.join(newline) + newline;
}

interface Collected {
  messages: FromCoordinator[];
  batches: ImportBatchData[];
}

async function runImport(
  text: string | Uint8Array,
  choices: ImportChoices,
  options: { lanes?: number; blockBytes?: number; ack?: boolean; signal?: AbortSignal } = {},
): Promise<Collected> {
  const messages: FromCoordinator[] = [];
  const batches: ImportBatchData[] = [];
  const controller = new AbortController();
  let run: ReturnType<typeof createImportRun> | null = null;
  run = createImportRun({
    file: new Blob([text as BlobPart]),
    choices,
    lanes: lanes(options.lanes ?? 2),
    signal: options.signal ?? controller.signal,
    blockBytes: options.blockBytes ?? 16 * 1024,
    post: (m) => {
      messages.push(m);
      if (m.type === 'batch') {
        const { meta, cells } = readImportBatch(m.data);
        batches.push({ ...meta, cells });
        if (options.ack !== false) queueMicrotask(() => run?.ack());
      }
      if (m.type === 'reset') batches.length = 0;
    },
  });
  await run.run();
  return { messages, batches };
}

/** The rejects text rebuilt from the batches (what the back end will export) and the rows in order. */
function rebuild(batches: ImportBatchData[]) {
  let rejects = '';
  const rows: number[] = [];
  let pos = 0;
  for (const b of batches) {
    expect(b.pos).toBe(pos);
    pos += b.rows.length;
    rows.push(...b.rows);
    for (const [i, reasons, tail] of b.rejects) rejects += `${b.rows[i]},${csvCell(reasons)},${tail}\n`;
    b.rejects.forEach(([i]) => expect(b.buckets[i]).not.toBe(BUCKET.valid));
    expect(b.rejects.length).toBe(b.buckets.filter((x) => x !== BUCKET.valid).length);
  }
  return { rejects, rows };
}

describe('import coordinator with lanes', () => {
  it('turns the engine’s merged blocks into batches that carry exactly the CLI’s rows and rejects', async () => {
    const csv = messyCsv(3000);
    const choices: ImportChoices = {
      country: 'IN',
      variables: [
        { variable: 'loan_amount', column: '', optional: false },
        { variable: 'name', column: '', optional: true },
        { variable: 'due_date', column: '', optional: false },
      ],
    };
    const { messages, batches } = await runImport(csv, choices);
    const detected = messages.find((m) => m.type === 'detected');
    expect(detected).toMatchObject({
      detected: {
        encoding: 'utf-8',
        delimiter: ',',
        phoneColumn: 'Mobile Number',
        header: expect.any(Array),
      },
      // Auto-matched by normalised name; due_date has no column and stays unmapped.
      variables: [
        { variable: 'loan_amount', column: 'Loan Amount', optional: false },
        { variable: 'name', column: 'Name', optional: true },
        { variable: 'due_date', column: '', optional: false },
      ],
    });
    const done = messages.find((m) => m.type === 'done');
    if (done?.type !== 'done') throw new Error(`no done message: ${JSON.stringify(messages.at(-1))}`);
    const reference = await cleanInMemory(new TextEncoder().encode(csv), {
      country: 'IN',
      map: [
        ['loan_amount', 'Loan Amount'],
        ['name', 'Name'],
      ],
      optional: ['name'],
    });
    expect(done.report).toMatchObject({
      rows: reference.report.rows,
      valid: reference.report.valid,
      invalid: reference.report.invalid,
      duplicates: reference.report.duplicates,
      blankRows: reference.report.blank_rows,
      split: { workers: 2, mode: 'parallel' },
    });
    expect(batches.length).toBeGreaterThan(5);
    const { rejects, rows } = rebuild(batches);
    const header = reference.rejects.slice(0, reference.rejects.indexOf('\n') + 1);
    expect(header + rejects).toBe(reference.rejects);
    expect(rows.length).toBe(reference.report.rows);
    const cells = batches.flatMap((b) => b.cells);
    expect(cells[0]).toEqual(['C0', 'Kumar, Ravi 0', '', '', 'line one\nline two, "quoted"']);
    // E.164 digits only for rows whose phone is valid.
    const withPhone = batches.flatMap((b) => b.e164).filter((e) => e > 0).length;
    expect(withPhone).toBe(
      reference.report.rows -
        reference.report.issues.phone_missing -
        reference.report.issues.phone_invalid -
        reference.report.issues.phone_scientific_notation -
        reference.report.issues.phone_excel_decimal,
    );
    expect(messages.some((m) => m.type === 'progress')).toBe(true);
  });

  it('falls back to one lane when quoting makes splitting unsafe, and still matches the CLI', async () => {
    const csv =
      messyCsv(1500) +
      'C9,Bad "quote" here,9876543210,1,x\n' +
      messyCsv(1500).split('\n').slice(1).join('\n');
    const { messages, batches } = await runImport(csv, { country: 'IN', variables: [] });
    const done = messages.find((m) => m.type === 'done');
    if (done?.type !== 'done') throw new Error(`no done message: ${JSON.stringify(messages.at(-1))}`);
    expect(done.report.split.mode).toMatch(/sequential/);
    const reference = await cleanInMemory(new TextEncoder().encode(csv), { country: 'IN' });
    const header = reference.rejects.slice(0, reference.rejects.indexOf('\n') + 1);
    expect(header + rebuild(batches).rejects).toBe(reference.rejects);
    expect(done.report.rows).toBe(reference.report.rows);
  });

  it('starts over as Windows-1252 when invalid UTF-8 appears late, telling the UI to drop what it sent', async () => {
    const head = new TextEncoder().encode(messyCsv(25_000));
    const tail = new Uint8Array([
      ...new TextEncoder().encode('C1,Jos'),
      0xe9,
      ...new TextEncoder().encode(',9876543211,1,x\n'),
    ]);
    const bytes = new Uint8Array(head.length + tail.length);
    bytes.set(head);
    bytes.set(tail, head.length);
    expect(bytes.length).toBeGreaterThan(1 << 20); // past the sniffed first megabyte
    const { messages, batches } = await runImport(
      bytes,
      { country: 'IN', variables: [] },
      { blockBytes: 256 * 1024 },
    );
    expect(messages.some((m) => m.type === 'reset')).toBe(true);
    const done = messages.find((m) => m.type === 'done');
    if (done?.type !== 'done') throw new Error(`no done message: ${JSON.stringify(messages.at(-1))}`);
    expect(done.report).toMatchObject({
      encoding: 'windows-1252',
      encodingNote: expect.stringContaining('windows-1252'),
    });
    expect(batches.flatMap((b) => b.cells).at(-1)?.[1]).toBe('José');
    expect(batches.reduce((n, b) => n + b.rows.length, 0)).toBe(done.report.rows);
  });

  it('holds reading back while the back end has not stored the batches sent, and cancels cleanly', async () => {
    const controller = new AbortController();
    const csv = messyCsv(6000);
    const messages: FromCoordinator[] = [];
    const run = createImportRun({
      file: new Blob([csv]),
      choices: { country: 'IN', variables: [] },
      lanes: lanes(2),
      signal: controller.signal,
      blockBytes: 8 * 1024,
      maxQueued: 2,
      post: (m) => messages.push(m),
    });
    const finished = run.run();
    const batches = () => messages.filter((m) => m.type === 'batch').length;
    await vi.waitFor(() => expect(batches()).toBeGreaterThan(0), { timeout: 10_000 });
    // Without acks, at most maxQueued batches go out (plus the blocks already at the lanes), however
    // long we wait: waiting can only make this bound easier to break, so it is no timing gamble.
    await new Promise((r) => setTimeout(r, 300));
    expect(batches()).toBeLessThanOrEqual(2 + 4);
    const before = batches();
    for (let i = 0; i < before; i++) run.ack(); // all stored: room again
    await vi.waitFor(() => expect(batches()).toBeGreaterThan(before), { timeout: 10_000 });
    controller.abort();
    await finished;
    expect(messages.at(-1)).toMatchObject({ type: 'failed', code: 'cancelled' });
    expect(messages.some((m) => m.type === 'done')).toBe(false);
  });

  it('reports a file it cannot read in words, without a stack', async () => {
    const { messages } = await runImport('Name,City\nA,B\n', { country: 'IN', variables: [] });
    expect(messages.at(-1)).toMatchObject({
      type: 'failed',
      code: 'no_phone_column',
      message: expect.stringContaining('no phone column'),
    });
    const zip = await runImport(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), {
      country: 'IN',
      variables: [],
    });
    // A ZIP is read as a workbook: this one is cut short.
    expect(zip.messages.at(-1)).toMatchObject({
      type: 'failed',
      code: 'bad_workbook',
      message: expect.stringContaining('not a readable Excel workbook'),
    });
    const country = await runImport('Mobile\n9876543210\n', { country: 'Narnia', variables: [] });
    expect(country.messages.at(-1)).toMatchObject({
      type: 'failed',
      code: 'bad_option',
      message: expect.stringContaining('Narnia'),
    });
  });
});

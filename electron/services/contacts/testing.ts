// Test helpers for the contacts domain: run the real engine on bytes and feed its merged blocks to
// the real service exactly as the renderer's import worker does (same batch codec, same split of
// the rejects text), so tests exercise the whole back-end path against a real SQLite file.
import { BUCKET, cleanInMemory, createRowRules } from '../../../shared/domain/contacts/index.ts';
import type { InMemoryResult } from '../../../shared/domain/contacts/index.ts';
import {
  cellLine,
  encodeMergedBlock,
  engineChoices,
  splitRejectLines,
  toImportReport,
} from '../../../shared/ipc/channels/contacts.ts';
import type {
  ContactList,
  Detected,
  ImportChoices,
  VariableMapping,
} from '../../../shared/ipc/channels/contacts.ts';
import { generateContacts } from '../../../shared/testing/contactsGenerator.ts';
import type { GeneratorOptions, RowTruth } from '../../../shared/testing/contactsGenerator.ts';
import type { ContactsService } from './contactsService.ts';

/** A messy file from the project's generator (shared/testing/contactsGenerator.ts) and its truth. */
export function generate(
  rows: number,
  seed: number,
  options: Omit<GeneratorOptions, 'rows' | 'seed'> = {},
): { bytes: Uint8Array; truth: RowTruth[] } {
  return generateContacts({ rows, seed, ...options });
}

const NEWLINES = { lf: '\n', crlf: '\r\n', cr: '\r' } as const;

export interface Imported {
  list: ContactList;
  engine: InMemoryResult;
  listId: number;
}

/**
 * Cleans `bytes` with the engine (in process, small blocks so there are many batches) and imports
 * the result through the service: begin, one batch per merged block, finish.
 */
/** What the import needs: the service itself, or the same calls through the desk's channels. */
/** What the import dialog reports for a plain UTF-8, comma, LF file whose header is on row 1. */
export function plainDetected(header: string[], phoneColumn = 'Mobile Number'): Detected {
  return {
    encoding: 'utf-8',
    encodingSource: 'detected',
    encodingNote: null,
    delimiter: ',',
    delimiterSource: 'detected',
    newline: '\n',
    header,
    headerRow: 1,
    phoneColumn,
  };
}

export type ImportTarget = Pick<ContactsService, 'importBegin' | 'importBatch' | 'importFinish'>;

export async function importThroughService(
  service: ImportTarget,
  bytes: Uint8Array,
  options: {
    country?: string;
    variables?: VariableMapping[];
    blockBytes?: number;
    name?: string;
    /** false: stop before import-finish, as an app that stopped mid-import leaves it. */
    finish?: boolean;
  } = {},
): Promise<Imported> {
  const choices: ImportChoices = { country: options.country ?? 'IN', variables: options.variables ?? [] };
  const engine = await cleanInMemory(bytes, engineChoices(choices), {
    includeCells: true,
    blockBytes: options.blockBytes ?? 32 * 1024,
    chunkBytes: 16 * 1024,
  });
  const { report, setup } = engine;
  const detected: Detected = {
    encoding: report.encoding,
    encodingSource: report.encoding_source,
    encodingNote: report.encoding_note,
    delimiter: report.delimiter,
    delimiterSource: report.delimiter_source,
    newline: NEWLINES[report.newline],
    header: report.header,
    headerRow: report.header_row,
    phoneColumn: report.phone_column,
  };
  const begun = await service.importBegin({
    name: options.name ?? 'test list',
    fileName: 'test.csv',
    fileBytes: bytes.length,
    choices,
    detected,
  });
  const rules = createRowRules(setup);
  let pos = 0;
  let seq = 0;
  for (const block of engine.blocks) {
    const cells = block.cells ?? [];
    const n = block.rowNumbers.length;
    if (n === 0) continue;
    const e164 = cells.map((c) => {
      const e = rules.check(c).e164;
      return e === null ? 0 : Number(e.slice(1));
    });
    const data = encodeMergedBlock(block, { e164, cellLines: cells.map(cellLine).join('\n') }, pos);
    await service.importBatch({ importId: begun.importId, seq: seq++, data });
    pos += n;
  }
  if (options.finish === false) return { list: begun.list, engine, listId: begun.list.id };
  const finished = await service.importFinish({
    importId: begun.importId,
    report: toImportReport(report, 1),
    lateDuplicates: engine.lateDuplicates,
  });
  return { list: finished.list, engine, listId: finished.list.id };
}

/** Lines of a CSV text that start records (header excluded), keyed by their spreadsheet row. */
export function rejectLinesByRow(engine: InMemoryResult): Map<number, string> {
  const rows: number[] = [];
  for (const block of engine.blocks) {
    for (let i = 0; i < block.rowNumbers.length; i++)
      if (block.buckets[i] !== BUCKET.valid) rows.push(block.rowNumbers[i] as number);
  }
  const body = engine.rejects.slice(engine.rejects.indexOf('\n') + 1);
  const lines = splitRejectLines(body, rows);
  const csvCell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return new Map(
    lines.map(([reasons, tail], k) => [rows[k] as number, `${rows[k]},${csvCell(reasons)},${tail}\n`]),
  );
}

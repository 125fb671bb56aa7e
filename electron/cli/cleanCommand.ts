// `campaign-desk clean <file> --country <IN|+91> ... --out <upload.csv> --rejects <rejects.csv>
// --report <report.json>`: the contacts engine from the command line.
// Light imports only: the engine itself loads in the coordinator thread (start-up time counts).
import { terminalText } from '../../shared/domain/visibleText.ts';
import { parseDelimiter } from '../../shared/domain/contacts/delimiter.ts';
import { parseEncoding } from '../../shared/domain/contacts/encoding.ts';
import type { CleanReport, Delimiter, Encoding, Progress } from '../../shared/domain/contacts/index.ts';
import type { DeskFailure } from '../../shared/ipc/result.ts';
import { cleanFile } from '../services/contacts/engine/cleanFile.ts';
import { EXIT, parseCommandLine, UsageError } from './exitCodes.ts';
import type { Io } from './io.ts';
import { formatCount } from '../../shared/domain/formatCount.ts';
import { readFile, writeFile } from 'node:fs/promises';
import type { SuppressMap } from './suppressList.ts';

export const cleanUsage = `Usage: campaign-desk clean <file> --country <IN|+91> --out <upload.csv> --rejects <rejects.csv> --report <report.json> [options]

Cleans a contacts CSV or Excel workbook (.xlsx) offline: decodes a CSV (UTF-8, UTF-16,
Windows-1252, or an encoding detected such as Big5, GBK, Shift_JIS, EUC-KR) or reads one sheet of
a workbook, finds the header (below any title lines), the delimiter and the phone column,
normalises phone numbers to E.164, flags invalid rows and duplicates, and writes
  --out      the upload file: valid, non-duplicate rows; "Mobile Number" (E.164) first;
             formula cells lose their leading = + - @, bidi controls are removed
  --rejects  every other row: Row, Reasons, then the original cells (formulas neutralised,
             bidi controls shown as ⟨RLO⟩ …)
  --report   counts and decisions as JSON

Options:
  --country <IN|+91>            default country for numbers without a country code (required)
  --phone-column <header|#N>    the phone column (default: "Mobile Number", or a header such as
                                Phone, Mobile, Contact, MSISDN); "#4" is the 4th column, which
                                picks one of several columns with the same name
  --map <variable>=<column|#N>  a prompt variable and the column that fills it (repeatable);
                                "--map <variable>" alone picks the column with the same name.
                                The upload file keeps the mapped columns (all columns when none)
  --optional <variable>         a mapped variable that may be empty (repeatable)
  --keep-formula-cells          upload cells starting with = + - @ as they are (default: that
                                character dropped; the rows are flagged formula_cell either way)
  --encoding <name>             utf-8, utf-16le, utf-16be, windows-1252, or another encoding such as
                                big5, gbk, shift_jis, euc-kr, windows-1251, iso-8859-2 (default: detected)
  --delimiter <char>            , ; tab | (default: detected)
  --sheet <name|number>         the sheet of an Excel workbook (default: the first sheet)
  --suppress <file>             a do-not-call file (CSV or .xlsx, read as contact lists are; its
                                "reason" column kept): its numbers are held back from the upload
                                (repeatable; counted in the report's "suppressed")
  --workspace <name> --data <dir>  also hold back the numbers on that app workspace's do-not-call
                                list (and the shared list) in the data folder <dir>
  --workers <n>                 worker threads (default: 2, or 1 on a single core)
  --quiet                       no progress line
  --help                        this text

Exit codes: 0 cleaned (even with invalid rows), 1 the file cannot be cleaned, 2 bad usage,
130 interrupted.`;

interface CleanArgs {
  file: string;
  country: string;
  phoneColumn: string | undefined;
  sheet: string | undefined;
  map: Array<[string, string]>;
  optional: string[];
  keepFormulaCells: boolean;
  out: string;
  rejects: string;
  report: string;
  encoding: Encoding | undefined;
  delimiter: Delimiter | undefined;
  workers: number | undefined;
  quiet: boolean;
  suppress: string[];
  workspace: string | undefined;
  data: string | undefined;
}

export function parseCleanArgs(argv: string[]): CleanArgs | 'help' {
  const parsed = parseCommandLine({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      country: { type: 'string' },
      'phone-column': { type: 'string' },
      sheet: { type: 'string' },
      map: { type: 'string', multiple: true },
      optional: { type: 'string', multiple: true },
      'keep-formula-cells': { type: 'boolean', default: false },
      out: { type: 'string' },
      rejects: { type: 'string' },
      report: { type: 'string' },
      encoding: { type: 'string' },
      delimiter: { type: 'string' },
      workers: { type: 'string' },
      suppress: { type: 'string', multiple: true },
      workspace: { type: 'string' },
      data: { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length === 0
        ? 'name the CSV or .xlsx file to clean'
        : `one file at a time (got ${positionals.length})`,
    );
  }
  const required = (name: 'country' | 'out' | 'rejects' | 'report'): string => {
    const value = values[name];
    if (!value) throw new UsageError(`--${name} is required`);
    return value;
  };
  let encoding: Encoding | undefined;
  if (values.encoding !== undefined) {
    const e = parseEncoding(values.encoding);
    if (!e)
      throw new UsageError(
        `--encoding must be utf-8, utf-16le, utf-16be, windows-1252 or another known encoding such as big5, gbk, shift_jis, euc-kr (got "${values.encoding}")`,
      );
    encoding = e;
  }
  let delimiter: Delimiter | undefined;
  if (values.delimiter !== undefined) {
    const d = parseDelimiter(values.delimiter);
    if (!d)
      throw new UsageError(`--delimiter must be one of , ; tab | (got ${JSON.stringify(values.delimiter)})`);
    delimiter = d;
  }
  let workers: number | undefined;
  if (values.workers !== undefined) {
    if (!/^\d+$/.test(values.workers) || Number(values.workers) < 1 || Number(values.workers) > 64) {
      throw new UsageError(`--workers must be a number from 1 to 64 (got "${values.workers}")`);
    }
    workers = Number(values.workers);
  }
  const map = (values.map ?? []).map((entry): [string, string] => {
    const eq = entry.indexOf('=');
    return eq < 0 ? [entry.trim(), ''] : [entry.slice(0, eq).trim(), entry.slice(eq + 1)];
  });
  for (const [variable] of map) if (!variable) throw new UsageError('--map needs <variable>=<column>');
  if ((values.workspace === undefined) !== (values.data === undefined))
    throw new UsageError('--workspace and --data go together (the workspace of that data folder)');
  return {
    file: positionals[0] as string,
    country: required('country'),
    phoneColumn: values['phone-column'],
    sheet: values.sheet,
    map,
    optional: values.optional ?? [],
    keepFormulaCells: values['keep-formula-cells'] ?? false,
    out: required('out'),
    rejects: required('rejects'),
    report: required('report'),
    encoding,
    delimiter,
    workers,
    quiet: values.quiet ?? false,
    suppress: values.suppress ?? [],
    workspace: values.workspace,
    data: values.data,
  };
}

const n = formatCount;
const isDeskFailure = (error: unknown): error is DeskFailure =>
  error instanceof Error && error.name === 'DeskFailure';
const shownDelimiter = (d: Delimiter): string => (d === '\t' ? 'tab' : `"${d}"`);

function progressLine(p: Progress): string {
  const share = p.totalBytes ? ` ${Math.min(100, Math.floor((p.bytes / p.totalBytes) * 100))}%` : '';
  const eta = p.etaSeconds !== null ? ` · ETA ${Math.ceil(p.etaSeconds)} s` : '';
  return `cleaning:${share} · ${n(p.rows)} rows · ${n(Math.round(p.rowsPerSecond))} rows/s${eta}`;
}

function summary(args: CleanArgs, report: CleanReport): string {
  return [
    `${args.file}: ${n(report.rows)} rows → ${n(report.valid)} valid, ${n(report.invalid)} invalid, ${n(report.duplicates)} duplicates`,
    report.sheet !== undefined
      ? `  read sheet "${report.sheet}", phone column "${report.phone_column}", default country ${report.country} (+${report.calling_code})`
      : `  read as ${report.encoding}, delimiter ${shownDelimiter(report.delimiter)}, phone column "${report.phone_column}", default country ${report.country} (+${report.calling_code})`,
    ...warnings(report),
    `  wrote ${args.out}, ${args.rejects}, ${args.report}`,
  ].join('\n');
}

/** Damage worth a line of its own: it changes what the operator should check. */
function warnings(report: CleanReport): string[] {
  const lines = detectionNotes(report);
  lines.push(
    ...report.duplicate_columns.map(
      (d) => `  warning: columns ${d.positions.map((p) => `#${p}`).join(', ')} are all named "${d.name}"`,
    ),
  );
  if (report.issues.quote_unbalanced > 0)
    lines.push(
      `  warning: ${n(report.issues.quote_unbalanced)} rows with a quote that never closes (read with the quote as a character; see the rejects file)`,
    );
  if (report.issues.phone_landline > 0)
    lines.push(
      `  warning: ${n(report.issues.phone_landline)} numbers are valid only as landlines (uploaded)`,
    );
  if (report.issues.formula_cell > 0)
    lines.push(
      `  warning: ${n(report.issues.formula_cell)} rows have cells a spreadsheet would run as formulas (uploaded without their leading = + - @)`,
    );
  if (report.issues.phone_bidi_control > 0)
    lines.push(
      `  warning: ${n(report.issues.phone_bidi_control)} numbers hold bidi controls that disguise their digits (rejected)`,
    );
  return lines;
}

/**
 * What detection chose where the file was ambiguous (issue 25): the header below titles, the
 * encoding of a file that is not UTF-8 and how sure the detector is. A guess from little evidence
 * is a warning: check the names (or pass --encoding) before uploading the file.
 */
export function detectionNotes(report: CleanReport): string[] {
  const lines: string[] = [];
  if (report.header_note) lines.push(`  note: ${report.header_note}`);
  if (report.encoding_note)
    lines.push(
      report.encoding_uncertain
        ? `  warning: encoding ${report.encoding_note} (or pass --encoding)`
        : `  note: encoding ${report.encoding_note}`,
    );
  return lines;
}

/**
 * --suppress / --workspace: the do-not-call numbers leave the upload file; the report counts them
 * (`suppressed`: total and per reason). Returns the summary's line about them, or null when neither
 * option was given. (Their modules, SQLite's among them, load only then: start-up time counts.)
 */
async function applySuppression(args: CleanArgs): Promise<string | null> {
  if (args.suppress.length === 0 && args.workspace === undefined) return null;
  const { addWorkspaceEntries, heldBackText, holdBack, readSuppressFile, uploadNumbers } =
    await import('./suppressList.ts');
  const { withWorkspaceDb } = await import('./workspaceDb.ts');
  const suppressed: SuppressMap = new Map();
  for (const file of args.suppress)
    for (const [e164, reason] of await readSuppressFile(file, args.country))
      if (!suppressed.has(e164)) suppressed.set(e164, reason);
  if (args.workspace !== undefined && args.data !== undefined)
    await withWorkspaceDb(args.data, args.workspace, async (db, workspaceId) =>
      addWorkspaceEntries(db, workspaceId, await uploadNumbers(args.out), suppressed),
    );
  const held = await holdBack(args.out, suppressed);
  const report = JSON.parse(await readFile(args.report, 'utf8')) as Record<string, unknown>;
  report.suppressed = { total: held.total, by_reason: held.byReason };
  await writeFile(args.report, JSON.stringify(report, null, 2) + '\n');
  return heldBackText(held);
}

export async function runClean(argv: string[], io: Io): Promise<number> {
  const args = parseCleanArgs(argv);
  if (args === 'help') {
    io.out(cleanUsage);
    return EXIT.ok;
  }
  const abort = new AbortController();
  const stopOnSignal = (): void => abort.abort();
  io.onInterrupt(stopOnSignal);
  const showProgress = !args.quiet && io.interactive;
  let shown = false;
  try {
    const report = await cleanFile({
      path: args.file,
      country: args.country,
      phoneColumn: args.phoneColumn,
      sheet: args.sheet,
      map: args.map,
      optional: args.optional,
      keepFormulaCells: args.keepFormulaCells,
      encoding: args.encoding,
      delimiter: args.delimiter,
      out: args.out,
      rejects: args.rejects,
      report: args.report,
      workers: args.workers,
      signal: abort.signal,
      onProgress: showProgress
        ? (p) => {
            shown = true;
            io.status(progressLine(p));
          }
        : undefined,
    });
    if (shown) io.status(null);
    const held = await applySuppression(args);
    io.out(summary(args, report));
    if (held) io.out(`  ${held}`);
    return EXIT.ok;
  } catch (error) {
    if (shown) io.status(null);
    if (isDeskFailure(error)) {
      if (error.code === 'cancelled') return EXIT.interrupted;
      if (error.code === 'internal') {
        io.err(`campaign-desk: internal error: ${terminalText(error.message)}`);
        if (process.env.DESK_DEBUG) io.err(error.stack ?? '');
        return EXIT.internal;
      }
      const hint =
        error.field === 'phoneColumn'
          ? '; name it with --phone-column'
          : error.field === 'sheet'
            ? '; choose one with --sheet <name|number>'
            : '';
      io.err(`campaign-desk: ${terminalText(error.message)}${hint}`);
      return error.code === 'invalid_request' ? EXIT.usage : EXIT.failed;
    }
    throw error;
  } finally {
    io.offInterrupt(stopOnSignal);
  }
}

// `node scripts/gen-contacts.ts <rows> <seed> <out.csv> [--bom] [--crlf] [--encoding utf-8|utf-16le|windows-1252|big5|…]
//   [--delimiter ,|;|tab|pipe] [--title <line>]… [--stray-quote-header] [--lone-lf] [--truth <truth.jsonl>]`:
// writes a messy contact CSV made by the
// project's generator (shared/testing/contactsGenerator.ts); the same arguments give the same bytes.
// --truth writes one JSON line per data row: what the generator meant (number, damage, empty cells).
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { generateContactChunks, LEGACY_ENCODINGS } from '../shared/testing/contactsGenerator.ts';
import type { GeneratedDelimiter, GeneratedEncoding, RowTruth } from '../shared/testing/contactsGenerator.ts';

const USAGE =
  'usage: node scripts/gen-contacts.ts <rows> <seed> <out.csv> [--bom] [--crlf] [--encoding utf-8|utf-16le|windows-1252|big5|gb18030|shift_jis|euc-kr|windows-1251|iso-8859-2] [--delimiter ,|;|tab|pipe] [--title <line>]… [--stray-quote-header] [--lone-lf] [--truth <file.jsonl>]';
const DELIMITERS: Record<string, GeneratedDelimiter> = {
  ',': ',',
  ';': ';',
  tab: '\t',
  '\t': '\t',
  pipe: '|',
  '|': '|',
};
const ENCODINGS: GeneratedEncoding[] = ['utf-8', 'utf-16le', 'windows-1252', ...LEGACY_ENCODINGS];

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const args = process.argv.slice(2);
const positional: string[] = [];
const flags = {
  bom: false,
  crlf: false,
  encoding: 'utf-8' as GeneratedEncoding,
  delimiter: ',' as GeneratedDelimiter,
  truth: '',
  title: [] as string[],
  strayQuoteHeader: false,
  loneLf: false,
};
for (let i = 0; i < args.length; i++) {
  const arg = args[i] as string;
  if (arg === '--bom') flags.bom = true;
  else if (arg === '--crlf') flags.crlf = true;
  else if (arg === '--title') flags.title.push(args[++i] ?? fail(USAGE));
  else if (arg === '--stray-quote-header') flags.strayQuoteHeader = true;
  else if (arg === '--lone-lf') flags.loneLf = true;
  else if (arg === '--encoding') {
    const value = args[++i] as GeneratedEncoding;
    if (!ENCODINGS.includes(value)) fail(`--encoding must be one of ${ENCODINGS.join(', ')}\n${USAGE}`);
    flags.encoding = value;
  } else if (arg === '--delimiter') {
    const value = DELIMITERS[args[++i] ?? ''];
    if (!value) fail(`--delimiter must be , ; tab or pipe\n${USAGE}`);
    flags.delimiter = value;
  } else if (arg === '--truth') flags.truth = args[++i] ?? fail(USAGE);
  else if (arg.startsWith('--')) fail(`unknown option ${arg}\n${USAGE}`);
  else positional.push(arg);
}
const [rowsText, seed, out] = positional;
if (positional.length !== 3 || !/^\d+$/.test(rowsText ?? '') || !seed || !out) fail(USAGE);

// Written under temporary names and renamed at the end: never a half-written file.
const tempOut = `${out}.${process.pid}.tmp`;
const tempTruth = flags.truth ? `${flags.truth}.${process.pid}.tmp` : '';
const fd = openSync(tempOut, 'w');
const truthFd = tempTruth ? openSync(tempTruth, 'w') : -1;
try {
  let lines = '';
  const onRow = (t: RowTruth): void => {
    lines += JSON.stringify(t) + '\n';
    if (lines.length > 1 << 20) {
      writeSync(truthFd, lines);
      lines = '';
    }
  };
  const options = { rows: Number(rowsText), seed, ...flags };
  for (const chunk of generateContactChunks(options, truthFd >= 0 ? onRow : undefined)) writeSync(fd, chunk);
  if (truthFd >= 0) writeSync(truthFd, lines);
} catch (error) {
  rmSync(tempOut, { force: true });
  if (tempTruth) rmSync(tempTruth, { force: true });
  throw error;
} finally {
  closeSync(fd);
  if (truthFd >= 0) closeSync(truthFd);
}
renameSync(tempOut, out);
if (tempTruth) renameSync(tempTruth, flags.truth);
console.error(`wrote ${rowsText} rows to ${out}`);

// An .xlsx workbook opened for reading: its sheets (names, in workbook order), the date system,
// the styles that make a number a date, and the shared strings. Rows of a sheet are streamed
// (sheetRows.ts); nothing else of the sheets is read.
import { ContactsError } from '../contacts/errors.ts';
import { builtInKind, elapsedFormat, formatKind, xmlText, zeroWidth } from './cellText.ts';
import type { DateKind, ElapsedFormat } from './cellText.ts';

/** What a cell style does to a number: show it as a date or time, a duration, or pad it with zeros. */
export type NumberStyle = DateKind | ElapsedFormat | { zeros: number };
import { createSharedStringsReader } from './sharedStrings.ts';
import type { SharedStrings } from './sharedStrings.ts';
import { entryChunks, entryText, openZip } from './zip.ts';
import type { RandomAccess, ZipEntry } from './zip.ts';

export interface SheetInfo {
  /** 1-based position in the workbook (as the tabs are ordered). */
  number: number;
  name: string;
  hidden: boolean;
  /** The part that holds its cells, e.g. xl/worksheets/sheet1.xml. */
  part: string;
}

export interface Workbook {
  file: RandomAccess;
  sheets: SheetInfo[];
  date1904: boolean;
  /** What each cell style (index = the cell's s attribute) does to numbers; null = nothing. */
  styleKinds: Array<NumberStyle | null>;
  strings: SharedStrings;
  entry(part: string): ZipEntry;
}

const attr = (tag: string, name: string): string | undefined => {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(tag);
  return m ? xmlText(m[1] ?? m[2] ?? '') : undefined;
};

/** Attributes of every <name …> tag in `xml` (any namespace prefix). */
const tags = (xml: string, name: string): string[] =>
  [...xml.matchAll(new RegExp(`<(?:\\w+:)?${name}(\\s[^>]*?)?/?>`, 'g'))].map((m) => m[1] ?? '');

const isTrue = (value: string | undefined): boolean => value === '1' || value === 'true';

/** A relationship target resolved against the folder of the part that names it. */
function resolvePart(base: string, target: string): string {
  // Some writers use backslashes in targets; part names use slashes.
  const path = target.replace(/\\/g, '/');
  if (path.startsWith('/')) return path.slice(1);
  const parts = base.split('/').slice(0, -1);
  for (const piece of path.split('/')) {
    if (piece === '..') parts.pop();
    else if (piece !== '.') parts.push(piece);
  }
  return parts.join('/');
}

const relsOf = (part: string): string => {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
};

function readStyles(xml: string): Array<NumberStyle | null> {
  const formats = new Map<number, NumberStyle | null>();
  for (const tag of tags(xml, 'numFmt')) {
    const id = Number(attr(tag, 'numFmtId'));
    const code = attr(tag, 'formatCode') ?? '';
    const zeros = zeroWidth(code);
    formats.set(id, elapsedFormat(code) ?? formatKind(code) ?? (zeros > 1 ? { zeros } : null));
  }
  const cellXfs = /<(?:\w+:)?cellXfs\b[\s\S]*?<\/(?:\w+:)?cellXfs>/.exec(xml)?.[0] ?? '';
  return tags(cellXfs, 'xf').map((tag) => {
    const id = Number(attr(tag, 'numFmtId') ?? 0);
    return formats.has(id) ? (formats.get(id) ?? null) : builtInKind(id);
  });
}

/** Opens a workbook: throws ContactsError('bad_workbook') for archives that are not one. */
export async function openWorkbook(file: RandomAccess): Promise<Workbook> {
  // OOXML part names are case-insensitive (Excel may write xl/SharedStrings.xml while the
  // relationships say sharedStrings.xml): parts are looked up by their lower-case name.
  const entries = new Map<string, ZipEntry>();
  for (const [name, entry] of await openZip(file)) entries.set(name.toLowerCase(), entry);
  const find = (part: string): ZipEntry | undefined => entries.get(part.toLowerCase());
  const text = async (part: string): Promise<string | null> => {
    const entry = find(part);
    return entry ? entryText(file, entry) : null;
  };
  const rootRels = (await text('_rels/.rels')) ?? '';
  const office = tags(rootRels, 'Relationship').find((t) => /\/officeDocument$/i.test(attr(t, 'Type') ?? ''));
  const workbookPart = office ? resolvePart('', attr(office, 'Target') ?? '') : 'xl/workbook.xml';
  if (workbookPart.endsWith('.bin'))
    throw new ContactsError(
      'bad_workbook',
      'an Excel binary workbook (.xlsb) cannot be read: save it as .xlsx or CSV in Excel',
    );
  const workbookXml = await text(workbookPart);
  if (workbookXml === null) {
    const what = find('content.xml') ? 'an OpenDocument spreadsheet (.ods)' : 'a ZIP archive';
    throw new ContactsError('bad_workbook', `not an Excel .xlsx workbook: it looks like ${what}`);
  }
  const rels = new Map<string, { type: string; target: string }>();
  for (const tag of tags((await text(relsOf(workbookPart))) ?? '', 'Relationship')) {
    const id = attr(tag, 'Id');
    if (id)
      rels.set(id, {
        type: attr(tag, 'Type') ?? '',
        target: resolvePart(workbookPart, attr(tag, 'Target') ?? ''),
      });
  }
  const sheets: SheetInfo[] = [];
  for (const tag of tags(workbookXml, 'sheet')) {
    const id = /(?:^|\s)[\w]+:id\s*=\s*"([^"]*)"/.exec(tag)?.[1];
    const rel = id ? rels.get(id) : undefined;
    // Chart sheets and dialog sheets have no cells.
    if (!rel || !/\/worksheet$/i.test(rel.type) || !find(rel.target)) continue;
    sheets.push({
      number: sheets.length + 1,
      name: attr(tag, 'name') ?? `Sheet${sheets.length + 1}`,
      hidden: (attr(tag, 'state') ?? 'visible') !== 'visible',
      part: rel.target,
    });
  }
  if (sheets.length === 0) throw new ContactsError('bad_workbook', 'the workbook has no worksheets');
  const date1904 = isTrue(attr(tags(workbookXml, 'workbookPr')[0] ?? '', 'date1904'));

  const typeOf = (suffix: string): string | undefined =>
    [...rels.values()].find((r) => r.type.toLowerCase().endsWith(suffix.toLowerCase()))?.target;
  const stylesXml = await text(typeOf('/styles') ?? 'xl/styles.xml');
  const strings = createSharedStringsReader();
  const stringsEntry = find(typeOf('/sharedStrings') ?? 'xl/sharedStrings.xml');
  if (stringsEntry) {
    const decoder = new TextDecoder('utf-8');
    for await (const chunk of entryChunks(file, stringsEntry))
      strings.push(decoder.decode(chunk, { stream: true }));
    strings.push(decoder.decode());
  }
  return {
    file,
    sheets,
    date1904,
    styleKinds: stylesXml ? readStyles(stylesXml) : [],
    strings: strings.end(),
    entry(part) {
      const entry = find(part);
      if (!entry) throw new ContactsError('bad_workbook', `the workbook is missing its part ${part}`);
      return entry;
    },
  };
}

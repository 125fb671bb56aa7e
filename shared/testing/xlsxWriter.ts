// A small .xlsx writer for tests and benchmarks: the cell kinds Excel writes (shared and inline
// strings, numbers, dates by style, booleans, formulas with cached values, sparse rows and cells,
// the 1904 date system), streamed as ZIP chunks (fflate) so a 1M-row workbook never sits in memory.
import { Zip, ZipDeflate } from 'fflate';

/** Cell styles of the generated workbook (index = the s attribute). */
export const TEST_STYLES = {
  general: 0,
  /** Built-in format 14 (m/d/yyyy). */
  date: 1,
  /** Custom format yyyy\-mm\-dd;@ (id 164). */
  isoDate: 2,
  /** Built-in format 22 (m/d/yyyy h:mm). */
  dateTime: 3,
  /** Built-in format 2 (0.00): a number, not a date. */
  fixed2: 4,
  /** Custom format 00000 (id 165): numbers padded to five digits. */
  zeros5: 5,
  /** Elapsed times (whole days count): [hh]:mm:ss (id 166), [mm]:ss (167), [h]:mm (168), built-in 46 ([h]:mm:ss). */
  elapsedHms: 6,
  elapsedMs: 7,
  elapsedHm: 8,
  elapsedBuiltIn: 9,
} as const;

export type TestCell =
  | string
  | number
  | boolean
  | null
  | { inline: string }
  /** A number as Excel may spell it in the XML (e.g. "9.19876543210E+11"). */
  | { raw: string; style?: keyof typeof TEST_STYLES }
  | { serial: number; style: keyof typeof TEST_STYLES }
  | { formula: string; value: string | number }
  /** A shared string whose <si> body is written as given (raw XML: `<t>a&#13;\nb</t>`, rich runs). */
  | { sharedXml: string };

export type TestRow = TestCell[] | { row: number; cells: TestCell[] };

export interface TestSheet {
  name: string;
  rows: Iterable<TestRow>;
  hidden?: boolean;
}

export interface TestWorkbook {
  sheets: TestSheet[];
  date1904?: boolean;
  /** Namespace prefix on the sheet elements (x:row, x:c …), as some generators write. */
  prefix?: string;
  /**
   * The name each part gets in the ZIP (relationships keep the usual names): OOXML part names are
   * case-insensitive, e.g. `xl/SharedStrings.xml` or `[content_types].xml`.
   */
  partName?: (name: string) => string;
}

const escape = (text: string): string =>
  text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));

function column(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** The workbook as ZIP bytes, chunk by chunk. */
export function* xlsxChunks(book: TestWorkbook): Generator<Uint8Array> {
  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, data) => {
    if (error) failure = error;
    else out.push(data);
  });
  const encoder = new TextEncoder();
  function* file(name: string, parts: Iterable<string>): Generator<Uint8Array> {
    const entry = new ZipDeflate(book.partName ? book.partName(name) : name, { level: 1 });
    zip.add(entry);
    let buffer = '';
    for (const part of parts) {
      buffer += part;
      if (buffer.length >= 1 << 20) {
        entry.push(encoder.encode(buffer));
        buffer = '';
        yield* out.splice(0);
      }
    }
    entry.push(encoder.encode(buffer), true);
    if (failure) throw failure;
    yield* out.splice(0);
  }

  const strings = new Map<string, number>();
  /** Shared strings given as raw XML, keyed apart from plain text. */
  const RAW = '\u0000raw:';
  const shared = (text: string): number => {
    let index = strings.get(text);
    if (index === undefined) {
      index = strings.size;
      strings.set(text, index);
    }
    return index;
  };
  const p = book.prefix ? `${book.prefix}:` : '';
  const cellXml = (cell: TestCell, ref: string): string => {
    if (cell === null) return '';
    if (typeof cell === 'string') return `<${p}c r="${ref}" t="s"><${p}v>${shared(cell)}</${p}v></${p}c>`;
    if (typeof cell === 'number') return `<${p}c r="${ref}"><${p}v>${cell}</${p}v></${p}c>`;
    if (typeof cell === 'boolean') return `<${p}c r="${ref}" t="b"><${p}v>${cell ? 1 : 0}</${p}v></${p}c>`;
    if ('sharedXml' in cell)
      return `<${p}c r="${ref}" t="s"><${p}v>${shared(RAW + cell.sharedXml)}</${p}v></${p}c>`;
    if ('inline' in cell)
      return `<${p}c r="${ref}" t="inlineStr"><${p}is><${p}t>${escape(cell.inline)}</${p}t></${p}is></${p}c>`;
    if ('raw' in cell)
      return `<${p}c r="${ref}" s="${TEST_STYLES[cell.style ?? 'general']}"><${p}v>${cell.raw}</${p}v></${p}c>`;
    if ('serial' in cell)
      return `<${p}c r="${ref}" s="${TEST_STYLES[cell.style]}"><${p}v>${cell.serial}</${p}v></${p}c>`;
    const type = typeof cell.value === 'string' ? ' t="str"' : '';
    return `<${p}c r="${ref}"${type}><${p}f>${escape(cell.formula)}</${p}f><${p}v>${escape(String(cell.value))}</${p}v></${p}c>`;
  };
  function* sheetXml(sheet: TestSheet): Generator<string> {
    yield `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<${p}worksheet xmlns${book.prefix ? `:${book.prefix}` : ''}="${NS}" xmlns:r="${REL}"><${p}sheetData>`;
    let next = 1;
    for (const spec of sheet.rows) {
      const { row, cells } = Array.isArray(spec) ? { row: next, cells: spec } : spec;
      next = row + 1;
      let xml = `<${p}row r="${row}">`;
      cells.forEach((cell, i) => (xml += cellXml(cell, `${column(i)}${row}`)));
      yield `${xml}</${p}row>`;
    }
    yield `</${p}sheetData><${p}rowBreaks count="0"/></${p}worksheet>`;
  }

  const sml = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
  const overrides = [
    `<Override PartName="/xl/workbook.xml" ContentType="${sml}.sheet.main+xml"/>`,
    `<Override PartName="/xl/styles.xml" ContentType="${sml}.styles+xml"/>`,
    `<Override PartName="/xl/sharedStrings.xml" ContentType="${sml}.sharedStrings+xml"/>`,
    ...book.sheets.map(
      (_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="${sml}.worksheet+xml"/>`,
    ),
  ].join('');
  yield* file('[Content_Types].xml', [
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${overrides}</Types>`,
  ]);
  yield* file('_rels/.rels', [
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  ]);
  const sheetList = book.sheets
    .map(
      (s, i) =>
        `<sheet name="${escape(s.name)}" sheetId="${i + 1}"${s.hidden ? ' state="hidden"' : ''} r:id="rId${i + 3}"/>`,
    )
    .join('');
  yield* file('xl/workbook.xml', [
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="${NS}" xmlns:r="${REL}"><workbookPr${book.date1904 ? ' date1904="1"' : ''}/><sheets>${sheetList}</sheets></workbook>`,
  ]);
  const rels = book.sheets
    .map(
      (_, i) =>
        `<Relationship Id="rId${i + 3}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
    )
    .join('');
  yield* file('xl/_rels/workbook.xml.rels', [
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/styles" Target="styles.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>${rels}</Relationships>`,
  ]);
  yield* file('xl/styles.xml', [
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="${NS}"><numFmts count="5"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd;@"/><numFmt numFmtId="165" formatCode="00000"/><numFmt numFmtId="166" formatCode="[hh]:mm:ss"/><numFmt numFmtId="167" formatCode="[mm]:ss"/><numFmt numFmtId="168" formatCode="[h]:mm"/></numFmts><cellStyleXfs count="1"><xf numFmtId="0"/></cellStyleXfs><cellXfs count="10"><xf numFmtId="0" xfId="0"/><xf numFmtId="14" xfId="0" applyNumberFormat="1"/><xf numFmtId="164" xfId="0" applyNumberFormat="1"/><xf numFmtId="22" xfId="0" applyNumberFormat="1"/><xf numFmtId="2" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" xfId="0" applyNumberFormat="1"/><xf numFmtId="166" xfId="0" applyNumberFormat="1"/><xf numFmtId="167" xfId="0" applyNumberFormat="1"/><xf numFmtId="168" xfId="0" applyNumberFormat="1"/><xf numFmtId="46" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>`,
  ]);
  // The sheets before the shared strings, as Excel orders them: the reader must not depend on order.
  for (const [i, sheet] of book.sheets.entries())
    yield* file(`xl/worksheets/sheet${i + 1}.xml`, sheetXml(sheet));
  function* stringsXml(): Generator<string> {
    yield `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="${NS}" count="${strings.size}" uniqueCount="${strings.size}">`;
    for (const text of strings.keys())
      if (text.startsWith(RAW)) yield `<si>${text.slice(RAW.length)}</si>`;
      else yield `<si><t${/^\s|\s$/.test(text) ? ' xml:space="preserve"' : ''}>${escape(text)}</t></si>`;
    yield '</sst>';
  }
  yield* file('xl/sharedStrings.xml', stringsXml());
  zip.end();
  if (failure) throw failure;
  yield* out.splice(0);
}

/** The whole workbook in memory (small test workbooks). */
export function xlsxBytes(book: TestWorkbook): Uint8Array {
  const parts = [...xlsxChunks(book)];
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

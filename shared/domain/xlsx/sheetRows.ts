// The rows of one worksheet, streamed: the sheet's XML is inflated a slice at a time and each
// complete <row> is turned into cell texts (cellText.ts), so memory holds one slice, not the sheet.
// Rows and cells may be sparse (Excel leaves out empty ones; r="C7" says where a cell is).
import { ContactsError } from '../contacts/errors.ts';
import { numberText, serialText, xmlText } from './cellText.ts';
import { itemText } from './sharedStrings.ts';
import type { Workbook, SheetInfo } from './workbook.ts';
import { entryChunks } from './zip.ts';
import type { EntryProgress } from './zip.ts';

export interface SheetRow {
  /** 1-based row number in the sheet. */
  row: number;
  /** Cell texts from column A; empty cells are ''; trailing empty cells left out. */
  cells: string[];
}

const ATTRS = /([\w:]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** Column letters of a cell reference → 0-based index ("A1" → 0, "AB7" → 27). */
function columnOf(ref: string): number {
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c >= 65 && c <= 90) n = n * 26 + (c - 64);
    else if (c >= 97 && c <= 122) n = n * 26 + (c - 96);
    else break;
  }
  return n - 1;
}

function attributes(tag: string): { r?: string; t?: string; s?: string } {
  const out: { r?: string; t?: string; s?: string } = {};
  ATTRS.lastIndex = 0;
  for (let m = ATTRS.exec(tag); m; m = ATTRS.exec(tag)) {
    const name = m[1];
    if (name === 'r' || name === 't' || name === 's') out[name] = m[2] ?? m[3] ?? '';
  }
  return out;
}

export interface RowsOptions {
  /** Compressed bytes of the sheet read so far / in all. */
  onRead?: EntryProgress | undefined;
  /** Compressed bytes read at a time (default 1 MiB; less when only the first rows are wanted). */
  sliceBytes?: number | undefined;
}

/** Rows of `sheet` in order, a slice's worth at a time. */
export async function* sheetRows(
  book: Workbook,
  sheet: SheetInfo,
  options: RowsOptions = {},
): AsyncGenerator<SheetRow[]> {
  const { strings, styleKinds, date1904 } = book;
  let prefix: string | null = null;
  let rowOpen = '<row';
  let rowClose = '</row>';
  let cellPattern = /<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g;
  let valuePattern = /<v>([^<]*)<\/v>/;
  let inlinePattern = /<is>([\s\S]*?)<\/is>/;
  let nextRow = 1;

  const cellText = (attrs: { t?: string; s?: string }, body: string | undefined): string => {
    if (body === undefined) return '';
    const type = attrs.t ?? 'n';
    if (type === 'inlineStr') {
      const inline = inlinePattern.exec(body);
      return inline ? itemText(inline[1] ?? '') : '';
    }
    const v = valuePattern.exec(body)?.[1];
    if (v === undefined) return '';
    switch (type) {
      case 's': {
        const text = strings.get(Number(v));
        if (text === undefined)
          throw new ContactsError(
            'bad_workbook',
            `sheet "${sheet.name}" refers to a shared string that does not exist (${v})`,
          );
        return text;
      }
      case 'b':
        return v === '1' ? 'TRUE' : 'FALSE';
      case 'str':
      case 'e':
        return xmlText(v);
      case 'd': {
        // An ISO 8601 date (Strict OOXML and some writers): its date, plus the time when there is one.
        const iso = xmlText(v);
        const [date = '', time = ''] = iso.split('T');
        return time === '' || /^00:00(:00)?(\.0+)?Z?$/.test(time)
          ? date
          : `${date} ${time.replace(/Z$/, '').slice(0, 8)}`;
      }
      default: {
        const kind = attrs.s === undefined ? null : (styleKinds[Number(attrs.s)] ?? null);
        return kind ? serialText(v, kind, date1904) : numberText(v);
      }
    }
  };

  const parseRow = (tag: string, body: string | null): SheetRow => {
    const r = attributes(tag).r;
    const row = r ? Number(r) : nextRow;
    nextRow = row + 1;
    const cells: string[] = [];
    if (body !== null) {
      let column = 0;
      cellPattern.lastIndex = 0;
      for (let m = cellPattern.exec(body); m; m = cellPattern.exec(body)) {
        const attrs = attributes(m[1] ?? '');
        if (attrs.r) column = columnOf(attrs.r);
        const text = cellText(attrs, m[2]);
        if (text !== '') {
          while (cells.length < column) cells.push('');
          cells[column] = text;
        }
        column++;
      }
    }
    return { row, cells };
  };

  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  for await (const chunk of entryChunks(book.file, book.entry(sheet.part), {
    onRead: options.onRead,
    sliceBytes: options.sliceBytes,
  })) {
    buffer += decoder.decode(chunk, { stream: true });
    if (prefix === null) {
      const root = /<(\w+:)?worksheet\b/.exec(buffer);
      if (!root) continue;
      prefix = root[1] ?? '';
      if (prefix) {
        const p = prefix;
        rowOpen = `<${p}row`;
        rowClose = `</${p}row>`;
        cellPattern = new RegExp(`<${p}c\\b([^>]*?)(?:\\/>|>([\\s\\S]*?)<\\/${p}c>)`, 'g');
        valuePattern = new RegExp(`<${p}v>([^<]*)<\\/${p}v>`);
        inlinePattern = new RegExp(`<${p}is>([\\s\\S]*?)<\\/${p}is>`);
      }
    }
    const rows: SheetRow[] = [];
    let pos = 0;
    for (;;) {
      const open = buffer.indexOf(rowOpen, pos);
      if (open < 0) {
        pos = Math.max(pos, buffer.length - rowOpen.length);
        break;
      }
      const next = buffer.charCodeAt(open + rowOpen.length);
      if (Number.isNaN(next)) {
        pos = open;
        break;
      }
      if (next !== 32 && next !== 62 && next !== 47 && next !== 9 && next !== 10 && next !== 13) {
        pos = open + 1; // <rowBreaks> and the like
        continue;
      }
      const tagEnd = buffer.indexOf('>', open);
      if (tagEnd < 0) {
        pos = open;
        break;
      }
      const tag = buffer.slice(open + rowOpen.length, tagEnd);
      if (buffer.charCodeAt(tagEnd - 1) === 47) {
        rows.push(parseRow(tag, null));
        pos = tagEnd + 1;
        continue;
      }
      const close = buffer.indexOf(rowClose, tagEnd);
      if (close < 0) {
        pos = open;
        break;
      }
      rows.push(parseRow(tag, buffer.slice(tagEnd + 1, close)));
      pos = close + rowClose.length;
    }
    buffer = buffer.slice(pos);
    if (rows.length > 0) yield rows;
  }
}

// The rows of one worksheet, streamed: the sheet's XML is inflated a slice at a time and each
// complete <row> is turned into cell texts (cellText.ts), so memory holds one slice, not the sheet.
// Rows and cells may be sparse (Excel leaves out empty ones; r="C7" says where a cell is).
import { ContactsError } from '../contacts/errors.ts';
import { elapsedText, numberText, padded, serialText, xmlText } from './cellText.ts';
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

/** An attribute of a start tag's text (` r="A1" t="s"`), by plain search: this runs per cell. */
function attribute(tag: string, name: string): string | undefined {
  for (const quote of ['"', "'"]) {
    let at = tag.indexOf(` ${name}=${quote}`);
    if (at < 0) continue;
    at += name.length + 3;
    const end = tag.indexOf(quote, at);
    return end < 0 ? undefined : tag.slice(at, end);
  }
  return undefined;
}

/** Index of `<name` as a whole tag name (not `<names`) from `from`, or -1. */
function findTag(text: string, open: string, from: number): number {
  for (let at = text.indexOf(open, from); at >= 0; at = text.indexOf(open, at + 1)) {
    const next = text.charCodeAt(at + open.length);
    if (next === 32 || next === 62 || next === 47 || next === 9 || next === 10 || next === 13) return at;
  }
  return -1;
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
  let cellOpen = '<c';
  let cellClose = '</c>';
  let valueOpen = '<v>';
  let valueClose = '</v>';
  let inlineOpen = '<is>';
  let inlineClose = '</is>';
  let nextRow = 1;

  /** Text between `open` and `close` inside `body`, or undefined. */
  const inner = (body: string, open: string, close: string): string | undefined => {
    const start = body.indexOf(open);
    if (start < 0) return undefined;
    const end = body.indexOf(close, start + open.length);
    return end < 0 ? undefined : body.slice(start + open.length, end);
  };

  const cellText = (tag: string, body: string | undefined): string => {
    if (body === undefined) return '';
    const type = attribute(tag, 't') ?? 'n';
    if (type === 'inlineStr') {
      const inline = inner(body, inlineOpen, inlineClose);
      return inline === undefined ? '' : itemText(inline);
    }
    const v = inner(body, valueOpen, valueClose);
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
        const style = attribute(tag, 's');
        const kind = style === undefined ? null : (styleKinds[Number(style)] ?? null);
        if (kind === null) return numberText(v);
        if (typeof kind === 'string') return serialText(v, kind, date1904);
        return 'elapsed' in kind ? elapsedText(v, kind) : padded(numberText(v), kind.zeros);
      }
    }
  };

  const parseRow = (tag: string, body: string | null): SheetRow => {
    const r = attribute(tag, 'r');
    const row = r ? Number(r) : nextRow;
    nextRow = row + 1;
    const cells: string[] = [];
    if (body === null) return { row, cells };
    let column = 0;
    for (let at = findTag(body, cellOpen, 0); at >= 0;) {
      const tagEnd = body.indexOf('>', at);
      if (tagEnd < 0) break;
      const empty = body.charCodeAt(tagEnd - 1) === 47;
      const cellTag = body.slice(at + cellOpen.length, empty ? tagEnd - 1 : tagEnd);
      let content: string | undefined;
      let after = tagEnd + 1;
      if (!empty) {
        const close = body.indexOf(cellClose, tagEnd);
        if (close < 0) break;
        content = body.slice(tagEnd + 1, close);
        after = close + cellClose.length;
      }
      const ref = attribute(cellTag, 'r');
      if (ref) column = columnOf(ref);
      const text = cellText(cellTag, content);
      if (text !== '') {
        while (cells.length < column) cells.push('');
        cells[column] = text;
      }
      column++;
      at = findTag(body, cellOpen, after);
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
        cellOpen = `<${p}c`;
        cellClose = `</${p}c>`;
        valueOpen = `<${p}v>`;
        valueClose = `</${p}v>`;
        inlineOpen = `<${p}is>`;
        inlineClose = `</${p}is>`;
      }
    }
    const rows: SheetRow[] = [];
    let pos = 0;
    for (;;) {
      const open = findTag(buffer, rowOpen, pos); // not <rowBreaks>
      if (open < 0) {
        // Keep a tail that may be the start of a <row tag cut by the chunk's end.
        pos = Math.max(pos, buffer.length - rowOpen.length);
        break;
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

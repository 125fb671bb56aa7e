// A one-sheet .xlsx written as a stream (fflate's Zip, as the readers use fflate): every cell an
// inline string, so what is written is read back as the same text by any spreadsheet and by
// openWorkbook/sheetRows. For files people exchange (the do-not-call list's export).
import { Zip, ZipDeflate } from 'fflate';

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const SML = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
const FLUSH_AT = 1 << 20;

/** XML text: markup escaped, characters XML 1.0 cannot hold (C0 controls but tab/LF/CR) dropped. */
const xmlText = (text: string): string =>
  text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));

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

export interface SheetWriter {
  /** One row of text cells. */
  row(cells: readonly string[]): void;
  /** Ends the sheet and the ZIP; every chunk has been emitted when it returns. */
  end(): void;
}

/** A workbook of one sheet named `sheetName`; its bytes go to `emit` chunk by chunk, in order. */
export function createSheetWriter(sheetName: string, emit: (chunk: Uint8Array) => void): SheetWriter {
  let failure: Error | null = null;
  const zip = new Zip((error, data) => {
    if (error) failure = error;
    else emit(data);
  });
  const encoder = new TextEncoder();
  const check = () => {
    if (failure) throw failure;
  };
  const whole = (name: string, text: string) => {
    const entry = new ZipDeflate(name, { level: 6 });
    zip.add(entry);
    entry.push(encoder.encode(text), true);
    check();
  };
  whole(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="${SML}.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="${SML}.worksheet+xml"/></Types>`,
  );
  whole(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  whole(
    'xl/workbook.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="${xmlText(sheetName.slice(0, 31))}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  );
  whole(
    'xl/_rels/workbook.xml.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
  );
  const sheet = new ZipDeflate('xl/worksheets/sheet1.xml', { level: 6 });
  zip.add(sheet);
  let buffer = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${NS}"><sheetData>`;
  let next = 1;
  return {
    row(cells) {
      const r = next++;
      buffer += `<row r="${r}">`;
      cells.forEach((cell, i) => {
        if (cell === '') return;
        const space = /^\s|\s$/.test(cell) ? ' xml:space="preserve"' : '';
        buffer += `<c r="${column(i)}${r}" t="inlineStr"><is><t${space}>${xmlText(cell)}</t></is></c>`;
      });
      buffer += '</row>';
      if (buffer.length >= FLUSH_AT) {
        sheet.push(encoder.encode(buffer));
        buffer = '';
        check();
      }
    },
    end() {
      sheet.push(encoder.encode(`${buffer}</sheetData></worksheet>`), true);
      zip.end();
      check();
    },
  };
}

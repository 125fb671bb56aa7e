// Excel .xlsx workbooks, read as a stream (pure TypeScript + fflate: Node and Web Workers alike):
// zip.ts (the container), workbook.ts (sheets, styles, shared strings), sheetRows.ts (rows),
// cellText.ts (what a cell shows), sheetCsv.ts (a sheet as the contacts engine's CSV input).
export { bytesAccess, openZip } from './zip.ts';
export type { RandomAccess, ZipEntry } from './zip.ts';
export { openWorkbook } from './workbook.ts';
export type { SheetInfo, Workbook } from './workbook.ts';
export { sheetRows } from './sheetRows.ts';
export type { SheetRow } from './sheetRows.ts';
export { numberText, serialText, formatKind } from './cellText.ts';
export {
  chooseSheet,
  describeSheets,
  findSheet,
  openSheet,
  sheetCsvSource,
  sheetHeader,
  sheetOverview,
  sheetProgress,
  workbookChoices,
} from './sheetCsv.ts';
export type { OpenedSheet, SheetOverview, SheetSource } from './sheetCsv.ts';

/** ZIP's signature: every .xlsx starts with it (so does any ZIP archive). */
export const isZip = (firstBytes: Uint8Array): boolean =>
  firstBytes[0] === 0x50 && firstBytes[1] === 0x4b && firstBytes[2] === 0x03 && firstBytes[3] === 0x04;

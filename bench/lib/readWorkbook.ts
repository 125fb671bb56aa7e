// Child script of bench:xlsx: reads every row of a workbook's sheet with the shared reader alone
// (no cleaning) and prints `rows <n>`: the reader's own time and memory.
import { open } from 'node:fs/promises';
import { fileAccess } from '../../electron/services/contacts/engine/inputSource.ts';
import { openWorkbook, sheetRows } from '../../shared/domain/xlsx/index.ts';

const [path, sheetName] = process.argv.slice(2);
if (!path || !sheetName) throw new Error('usage: readWorkbook.ts <file.xlsx> <sheet>');
const handle = await open(path);
const size = (await handle.stat()).size;
const book = await openWorkbook(fileAccess(handle, size));
const sheet = book.sheets.find((s) => s.name === sheetName);
if (!sheet) throw new Error(`no sheet ${sheetName}`);
let rows = 0;
for await (const batch of sheetRows(book, sheet)) rows += batch.length;
await handle.close();
console.log(`rows ${rows}`);

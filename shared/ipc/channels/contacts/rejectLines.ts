// The engine's rejects text of one merged block, split back into each row's Reasons and tail (the
// import batch carries them apart; the e2e reads a rejects file with it).

/**
 * Splits the engine's rejects text for one merged block (`${row},${csvCell(reasons)},${tail}\n`
 * per row that is not valid, in file order) into each row's Reasons and tail. `rows` are those
 * rows' spreadsheet numbers. A tail may hold line breaks (inside quotes, or bare ones the file's
 * line-break style treats as data), so a line ends at the line break that is outside quotes and
 * followed by the next row's `${row},`. Throws when the text does not line up with `rows`.
 */
export function splitRejectLines(
  text: string,
  rows: readonly number[],
): Array<[reasons: string, tail: string]> {
  const out: Array<[string, string]> = [];
  let p = 0;
  const fail = (row: number): never => {
    throw new Error(`internal: the rejects text does not line up at row ${row}`);
  };
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k] as number;
    const prefix = `${row},`;
    if (!text.startsWith(prefix, p)) fail(row);
    let q = p + prefix.length;
    let reasons: string;
    if (text.charCodeAt(q) === 34) {
      let j = q + 1;
      for (;;) {
        const quote = text.indexOf('"', j);
        if (quote < 0) fail(row);
        if (text.charCodeAt(quote + 1) === 34) {
          j = quote + 2;
          continue;
        }
        reasons = text.slice(q + 1, quote).replace(/""/g, '"');
        q = quote + 1;
        break;
      }
      if (text.charCodeAt(q) !== 44) fail(row);
      q++;
    } else {
      const comma = text.indexOf(',', q);
      if (comma < 0) fail(row);
      reasons = text.slice(q, comma);
      q = comma + 1;
    }
    let end: number;
    if (k === rows.length - 1) {
      end = text.length - 1;
      if (end < q || text.charCodeAt(end) !== 10) fail(row);
    } else {
      const next = `\n${rows[k + 1] as number},`;
      let quotes = 0;
      let counted = q;
      end = text.indexOf(next, q);
      for (;;) {
        if (end < 0) fail(row);
        for (let i = text.indexOf('"', counted); i >= 0 && i < end; i = text.indexOf('"', i + 1)) quotes++;
        counted = end;
        if (quotes % 2 === 0) break;
        end = text.indexOf(next, end + 1);
      }
    }
    out.push([reasons!, text.slice(q, end)]);
    p = end + 1;
  }
  if (p !== text.length) throw new Error('internal: the rejects text has more lines than rows');
  return out;
}

/**
 * Every character JavaScript's String.prototype.trim removes (WhiteSpace and LineTerminator:
 * tab, VT, FF, space, NBSP, ZWNBSP, the Zs category, LF, CR, LS, PS), as SQLite's trim() set, so
 * "blank" in SQL is exactly the engine's rule for a missing variable (`value.trim() === ''`).
 */
const JS_TRIM_CHARS = [
  0x09, 0x0b, 0x0c, 0x20, 0xa0, 0xfeff, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
  0x2007, 0x2008, 0x2009, 0x200a, 0x202f, 0x205f, 0x3000, 0x0a, 0x0d, 0x2028, 0x2029,
];
const TRIM_SET = `char(${JS_TRIM_CHARS.join(', ')})`;

/** SQL for "the cell at `column` of a stored row is missing or blank" (cells are a JSON array). */
export function blankCellSql(column: number): string {
  if (!Number.isInteger(column) || column < 0) throw new Error(`internal: bad column index ${column}`);
  return `(coalesce(trim(json_extract(cells, '$[${column}]'), ${TRIM_SET}), '') = '')`;
}

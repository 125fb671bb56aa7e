import type { Db } from '../define.ts';

const registered = new WeakSet<Db>();

/**
 * `cd_blank(value)`: 1 when a cell is missing or only whitespace (JavaScript's trim, the engine's
 * rule for a missing variable), else 0. Registered once per connection before a query uses it.
 */
export function withBlankFunction(db: Db): Db {
  if (!registered.has(db)) {
    db.function('cd_blank', { deterministic: true }, (value: unknown) =>
      value === null || value === undefined || String(value).trim() === '' ? 1 : 0,
    );
    registered.add(db);
  }
  return db;
}

/** SQL for "the cell at `column` of a stored row is blank" (cells are a JSON array). */
export function blankCellSql(column: number): string {
  if (!Number.isInteger(column) || column < 0) throw new Error(`internal: bad column index ${column}`);
  return `cd_blank(json_extract(cells, '$[${column}]'))`;
}

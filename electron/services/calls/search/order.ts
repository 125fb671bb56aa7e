// The Calls table's sort orders as SQL, and keyset paging over them (the export's batches).
import type { CallSort } from '../../../../shared/ipc/channels/calls.ts';

/** One column of a sort: the SQL, the export row's field holding its value, the direction. */
export interface SortKey {
  sql: string;
  field: 'created_ms' | 'attempt_ms' | 'id' | 'call_duration' | 'call_cost' | 'name' | 'status';
  dir: 'ASC' | 'DESC';
  /** The column may be null: nulls come last in either direction. */
  nullsLast?: true;
}

/** A sort as its keys, ending in the call id (unique: every order is total, so keyset pages work). */
export const sortKeys = (s: CallSort | undefined): SortKey[] => {
  const dir = s?.dir === 'asc' ? 'ASC' : 'DESC';
  const newest: SortKey[] = [
    { sql: 'c.created_ms', field: 'created_ms', dir: 'DESC' },
    { sql: 'c.id', field: 'id', dir: 'ASC' },
  ];
  switch (s?.by ?? 'created_at') {
    case 'created_at':
      return [
        { sql: 'c.created_ms', field: 'created_ms', dir },
        { sql: 'c.id', field: 'id', dir },
      ];
    case 'attempted_at':
      // Never dialled calls last in either direction: they have no time yet.
      return [{ sql: 'c.attempt_ms', field: 'attempt_ms', dir, nullsLast: true }, ...newest];
    case 'call_duration':
      return [{ sql: 'c.call_duration', field: 'call_duration', dir, nullsLast: true }, ...newest];
    case 'call_cost':
      return [{ sql: 'c.call_cost', field: 'call_cost', dir, nullsLast: true }, ...newest];
    case 'name':
      return [{ sql: 'c.name COLLATE NOCASE', field: 'name', dir, nullsLast: true }, ...newest];
    case 'status':
      return [{ sql: 'c.status', field: 'status', dir }, ...newest];
  }
};

export const sortSql = (s: CallSort | undefined): string =>
  sortKeys(s)
    .map((k) => `${k.sql} ${k.dir}${k.nullsLast ? ' NULLS LAST' : ''}`)
    .join(', ');

/**
 * The rows after `last` in the keys' order, as a condition (keyset paging): for some key, the keys
 * before it equal `last`'s and it comes after; `IS` compares nulls, a null sorts after any value.
 * When the first key is never null it is also bounded on its own (`>=`/`<=`), so an index on it
 * starts there instead of at the beginning.
 */
export function afterKeys(keys: readonly SortKey[], last: Record<SortKey['field'], unknown>) {
  const alternatives: string[] = [];
  const params: unknown[] = [];
  const equal: string[] = [];
  const equalParams: unknown[] = [];
  for (const k of keys) {
    const v = last[k.field] ?? null;
    if (v !== null) {
      const beyond = `${k.sql} ${k.dir === 'ASC' ? '>' : '<'} ?`;
      alternatives.push([...equal, k.nullsLast ? `(${beyond} OR ${k.sql} IS NULL)` : beyond].join(' AND '));
      params.push(...equalParams, v);
    }
    equal.push(`${k.sql} IS ?`);
    equalParams.push(v);
  }
  const first = keys[0]!;
  const v = last[first.field] ?? null;
  const bound = first.nullsLast || v === null ? null : `${first.sql} ${first.dir === 'ASC' ? '>=' : '<='} ?`;
  const any = alternatives.length === 0 ? '0' : alternatives.map((x) => `(${x})`).join(' OR ');
  return bound === null
    ? { sql: `(${any})`, params }
    : { sql: `${bound} AND (${any})`, params: [v, ...params] };
}

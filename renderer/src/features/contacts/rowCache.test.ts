import { describe, expect, it } from 'vitest';
import type { ContactRow } from '../../../../shared/ipc/channels/contacts.ts';
import { ok } from '../../../../shared/ipc/result.ts';
import type { FetchRows } from './rowCache.ts';
import { PAGE_ROWS, RowCache } from './rowCache.ts';

const row = (n: number, extra: Partial<ContactRow> = {}): ContactRow => ({
  row: n + 2,
  pos: n,
  cells: [`r${n}`],
  phoneRaw: '',
  e164: null,
  bucket: 'valid',
  issues: [],
  reasons: '',
  duplicateOf: 0,
  excluded: false,
  edited: false,
  country: null,
  ...extra,
});

/** A back end holding `total` rows that records each window asked for. */
function backend(total: number) {
  const asked: number[] = [];
  let version = 0;
  const fetch: FetchRows = async ({ offset, limit }) => {
    asked.push(offset);
    const rows = [];
    for (let i = offset; i < Math.min(total, offset + limit); i++)
      rows.push(row(i, { cells: [`r${i} v${version}`] }));
    return ok({ total, offset, rows });
  };
  return { fetch, asked, bump: () => version++ };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('row cache', () => {
  it('fetches only the pages of the visible window, once, and serves rows from them', async () => {
    const b = backend(1_000_000);
    const cache = new RowCache(1, 'all', b.fetch);
    let notified = 0;
    cache.subscribe(() => notified++);
    cache.ensure(0, 30);
    cache.ensure(0, 30);
    expect(b.asked).toEqual([0]);
    expect(cache.get(5)).toBeUndefined();
    await settle();
    expect(cache.get(5)?.cells).toEqual(['r5 v0']);
    expect(notified).toBe(1);
    cache.ensure(500_050, 500_120); // a jump to the middle: the two pages there, nothing in between
    await settle();
    expect(b.asked).toEqual([0, 500_000, 500_000 + PAGE_ROWS]);
    expect(cache.get(500_050)?.row).toBe(500_052);
  });

  it('refetches stale pages after a change but keeps showing the old rows until then', async () => {
    const b = backend(300);
    const cache = new RowCache(1, 'all', b.fetch);
    cache.ensure(0, 10);
    await settle();
    b.bump();
    cache.setVersion(1);
    cache.patch([row(3, { cells: ['edited'], edited: true })]);
    expect(cache.get(3)?.cells).toEqual(['edited']);
    cache.ensure(0, 10);
    expect(cache.get(4)?.cells).toEqual(['r4 v0']); // still shown while refetching
    await settle();
    expect(cache.get(4)?.cells).toEqual(['r4 v1']);
    expect(b.asked).toEqual([0, 0]);
  });

  it('keeps a bounded number of pages, dropping those far from the view', async () => {
    const b = backend(1_000_000);
    const cache = new RowCache(1, 'all', b.fetch);
    for (let p = 0; p < 100; p++) {
      cache.ensure(p * PAGE_ROWS, p * PAGE_ROWS + 10);
      await settle();
    }
    expect(cache.get(99 * PAGE_ROWS)).toBeDefined();
    expect(cache.get(0)).toBeUndefined();
  });

  it('shows a failed fetch as an error', async () => {
    const cache = new RowCache(1, 'all', async () => ({
      ok: false,
      error: { code: 'not_found', message: 'This contact list is not available.' },
    }));
    cache.ensure(0, 10);
    await settle();
    expect(cache.error).toBe('This contact list is not available.');
  });

  it('keeps the row count the back end last gave, for filters the list counts do not hold', async () => {
    const b = backend(250);
    const cache = new RowCache(1, 'empty:5', b.fetch);
    expect(cache.total).toBeNull();
    cache.ensure(0, 10);
    await settle();
    expect(cache.total).toBe(250);
  });
});

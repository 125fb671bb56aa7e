import { useEffect, useMemo, useState } from 'react';
import type { CallFilter, CallSort, CallSummary } from '../../../../shared/ipc/channels/calls.ts';
import { PAGE_ROWS, WindowCache } from '../../components/windowCache.ts';
import { desk } from '../../desk/desk.ts';

/**
 * The Calls table's window onto the filtered, sorted calls in SQLite, and how many match (every
 * page answer carries the total, so it follows syncs without another query). `total` is null until
 * the first page of this query arrives.
 */
export function useCallsWindow(filter: CallFilter, sort: CallSort, version: number) {
  const [answer, setAnswer] = useState<{ cache: WindowCache<CallSummary>; total: number } | null>(null);
  const cache = useMemo(() => {
    const c: WindowCache<CallSummary> = new WindowCache<CallSummary>(
      async (offset, limit) => {
        const result = await desk().calls.list({ filter, sort, offset, limit });
        if (result.ok) setAnswer({ cache: c, total: result.value.total });
        return result;
      },
      (call) => call.id,
    );
    return c;
  }, [filter, sort]);
  // The first page tells how many rows there are; the table asks for the rest as it scrolls.
  useEffect(() => {
    cache.setVersion(version);
    cache.ensure(0, PAGE_ROWS - 1);
  }, [cache, version]);
  return { cache, total: answer?.cache === cache ? answer.total : null };
}

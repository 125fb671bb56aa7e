import { useCallback, useEffect, useState } from 'react';
import type { ReviewMark } from '../../../../../shared/ipc/channels/review.ts';
import type { RequestOf } from '../../../../../shared/ipc/contract.ts';
import { desk } from '../../../desk/desk.ts';

export type MarkChange = Omit<RequestOf<'review:set'>, 'callId'>;

/**
 * A call's review mark and a function that changes it (resolving with an error message, or null).
 * `mark` is null while loading; `error` says why it could not be read.
 */
export function useReviewMark(callId: string) {
  const [state, setState] = useState<{ callId: string; mark: ReviewMark | null; error: string | null }>({
    callId,
    mark: null,
    error: null,
  });
  useEffect(() => {
    let live = true;
    void desk()
      .review.get({ callId })
      .then((r) => {
        if (live)
          setState({ callId, mark: r.ok ? r.value.mark : null, error: r.ok ? null : r.error.message });
      });
    return () => {
      live = false;
    };
  }, [callId]);

  const change = useCallback(
    async (patch: MarkChange): Promise<string | null> => {
      const r = await desk().review.set({ callId, ...patch });
      if (!r.ok) return r.error.message;
      setState({ callId, mark: r.value.mark, error: null });
      return null;
    },
    [callId],
  );
  // A mark of the call shown before (the id changed, the new one is loading) is not shown.
  const current = state.callId === callId ? state : { mark: null, error: null };
  return { mark: current.mark, error: current.error, change };
}

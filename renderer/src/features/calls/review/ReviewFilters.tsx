import { useEffect } from 'react';
import type { ReviewFilter } from '../../../../../shared/ipc/channels/calls.ts';
import { REVIEW_FILTERS } from '../../../../../shared/ipc/channels/calls.ts';
import { formatCount } from '../../../components/format.ts';
import { useCalls } from '../callsStore.ts';
import { Labelled } from '../Labelled.tsx';
import { useReview } from './reviewStore.ts';

const REVIEW_TEXT: Record<ReviewFilter, string> = {
  reviewed: 'Reviewed',
  unreviewed: 'Not reviewed',
  flagged: 'Flagged',
};

/** The Calls filters of the QA review: reviewed / not / flagged, and the flag's reason. */
export function ReviewFilters() {
  const review = useCalls((s) => s.filter.review);
  const flagReasons = useCalls((s) => s.filter.flagReasons);
  const setFilter = useCalls((s) => s.setFilter);
  const reasons = useReview((s) => s.reasons);
  useEffect(() => {
    void useReview.getState().load();
  }, []);
  // Removed reasons stay choosable while marks still carry them.
  const shown = reasons.filter((r) => !r.removed || r.uses > 0);
  return (
    <>
      <Labelled className="calls-filter" label="Review">
        {(id) => (
          <select
            id={id}
            className="select"
            value={review ?? ''}
            onChange={(e) => setFilter({ review: (e.target.value || undefined) as ReviewFilter | undefined })}
          >
            <option value="">Any review state</option>
            {REVIEW_FILTERS.map((r) => (
              <option key={r} value={r}>
                {REVIEW_TEXT[r]}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      <Labelled className="calls-filter" label="Flag reason">
        {(id) => (
          <select
            id={id}
            className="select"
            value={flagReasons?.[0] === undefined ? '' : String(flagReasons[0])}
            onChange={(e) =>
              setFilter({ flagReasons: e.target.value ? [Number(e.target.value)] : undefined })
            }
          >
            <option value="">Any reason</option>
            {shown.map((r) => (
              <option key={r.id} value={r.id}>
                {r.label}
                {r.removed ? ' (removed)' : ''} ({formatCount(r.uses)})
              </option>
            ))}
          </select>
        )}
      </Labelled>
    </>
  );
}

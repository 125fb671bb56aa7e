import { useEffect } from 'react';
import { ReviewPanel } from './ReviewPanel.tsx';
import { useReview } from './reviewStore.ts';
import { useReviewMark } from './useReviewMark.ts';
import './review.css';

/** The QA review of the call open in the Calls detail. */
export function CallReview({ callId }: { callId: string }) {
  const { mark, error, change } = useReviewMark(callId);
  useEffect(() => {
    if (useReview.getState().reviewer === null) void useReview.getState().load();
  }, []);
  return error ? <p className="field-error">{error}</p> : <ReviewPanel mark={mark} change={change} />;
}

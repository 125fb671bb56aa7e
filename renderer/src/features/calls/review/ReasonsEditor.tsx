import { useId, useState } from 'react';
import { REASON_LABEL_MAX } from '../../../../../shared/ipc/channels/review.ts';
import type { ReviewReason } from '../../../../../shared/ipc/channels/review.ts';
import { Button } from '../../../components/Button.tsx';
import { formatCount } from '../../../components/format.ts';
import { liveReasons, useReview } from './reviewStore.ts';

/** One reason: rename in place, or remove (marks that use it keep it). */
function ReasonRow({ reason }: { reason: ReviewReason }) {
  const renameReason = useReview((s) => s.renameReason);
  const removeReason = useReview((s) => s.removeReason);
  const [label, setLabel] = useState(reason.label);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const [seen, setSeen] = useState(reason.label);
  if (seen !== reason.label) {
    setSeen(reason.label);
    setLabel(reason.label);
  }
  return (
    <li className="reason-row">
      <label className="visually-hidden" htmlFor={id}>
        Name of the reason {reason.label}
      </label>
      <input
        id={id}
        className="input"
        value={label}
        maxLength={REASON_LABEL_MAX}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => {
          setLabel(e.target.value);
          setError(null);
        }}
      />
      <Button
        size="sm"
        disabled={label.trim() === reason.label}
        onClick={async () => setError(await renameReason(reason.id, label))}
      >
        Rename
      </Button>
      <Button
        size="sm"
        variant="danger"
        aria-label={`Remove ${reason.label}`}
        onClick={async () => setError(await removeReason(reason.id))}
      >
        Remove
      </Button>
      <span className="muted">
        {reason.uses === 0
          ? 'not used'
          : `${formatCount(reason.uses)} ${reason.uses === 1 ? 'call' : 'calls'}`}
      </span>
      {error ? (
        <span id={`${id}-error`} className="field-error" role="alert">
          {error}
        </span>
      ) : null}
    </li>
  );
}

/**
 * The flag reasons, editable: add, rename, remove. A removed reason leaves the list; calls flagged
 * with it keep it (shown as removed) and the filters still find them.
 */
export function ReasonsEditor() {
  const reasons = useReview((s) => s.reasons);
  const addReason = useReview((s) => s.addReason);
  const reviewer = useReview((s) => s.reviewer);
  const setReviewer = useReview((s) => s.setReviewer);
  const [label, setLabel] = useState('');
  const [name, setName] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const id = useId();
  const add = async () => {
    const problem = await addReason(label);
    setError(problem);
    if (!problem) setLabel('');
  };
  return (
    <details className="reasons-editor">
      <summary>Flag reasons and reviewer name</summary>
      <ul className="reasons-list" aria-label="Flag reasons">
        {liveReasons(reasons).map((r) => (
          <ReasonRow key={r.id} reason={r} />
        ))}
      </ul>
      <form
        className="reason-row"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <label htmlFor={`${id}-new`}>New reason</label>
        <input
          id={`${id}-new`}
          className="input"
          value={label}
          maxLength={REASON_LABEL_MAX}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-new-error` : undefined}
          onChange={(e) => {
            setLabel(e.target.value);
            setError(null);
          }}
        />
        <Button size="sm" type="submit" disabled={label.trim() === ''}>
          Add reason
        </Button>
        {error ? (
          <span id={`${id}-new-error`} className="field-error" role="alert">
            {error}
          </span>
        ) : null}
      </form>
      <form
        className="reason-row"
        onSubmit={(e) => {
          e.preventDefault();
          void setReviewer(name ?? reviewer ?? '').then((p) => {
            setNameError(p);
            if (!p) setName(null);
          });
        }}
      >
        <label htmlFor={`${id}-reviewer`}>Reviewer name (written on your marks)</label>
        <input
          id={`${id}-reviewer`}
          className="input"
          value={name ?? reviewer ?? ''}
          maxLength={100}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? `${id}-reviewer-error` : undefined}
          onChange={(e) => {
            setName(e.target.value);
            setNameError(null);
          }}
        />
        <Button size="sm" type="submit" disabled={name === null || name.trim() === ''}>
          Save name
        </Button>
        {nameError ? (
          <span id={`${id}-reviewer-error`} className="field-error" role="alert">
            {nameError}
          </span>
        ) : null}
      </form>
    </details>
  );
}

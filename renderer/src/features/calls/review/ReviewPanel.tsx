import type { KeyboardEvent, RefObject } from 'react';
import { useId, useState } from 'react';
import type { ReviewMark } from '../../../../../shared/ipc/channels/review.ts';
import { NOTE_MAX } from '../../../../../shared/ipc/channels/review.ts';
import { Button } from '../../../components/Button.tsx';
import { Labelled } from '../Labelled.tsx';
import { liveReasons, useReview } from './reviewStore.ts';
import type { MarkChange } from './useReviewMark.ts';
import { formatDateTime } from '../../../components/format.ts';

/** The mark in words: "Reviewed by Asha on 27 Nov 2026, 10:02 · Flagged: Rude". */
export function markText(mark: ReviewMark | null): string {
  if (!mark) return 'Loading the review…';
  const parts = [
    mark.reviewed
      ? `Reviewed by ${mark.reviewedBy ?? 'someone'} on ${formatDateTime(mark.reviewedAt)}`
      : 'Not reviewed yet',
  ];
  if (mark.flag)
    parts.push(`Flagged: ${mark.flag.label}${mark.flag.removed ? ' (reason since removed)' : ''}`);
  if (mark.note) parts.push('Note saved');
  return parts.join(' · ');
}

/**
 * A call's QA review: reviewed on/off, the flag reason (applied when chosen), a note (saved with the
 * button or Ctrl+Enter). Kept on this computer only. Escape in the flag or note field calls
 * `onLeave` (the review queue takes its keys back).
 */
export function ReviewPanel({
  mark,
  change,
  flagRef,
  noteRef,
  onLeave,
  onReviewed,
}: {
  mark: ReviewMark | null;
  change: (patch: MarkChange) => Promise<string | null>;
  flagRef?: RefObject<HTMLSelectElement | null>;
  noteRef?: RefObject<HTMLTextAreaElement | null>;
  onLeave?: () => void;
  /** After "Mark reviewed" was pressed (the queue moves on). */
  onReviewed?: () => void;
}) {
  const id = useId();
  const reasons = useReview((s) => s.reasons);
  const [note, setNote] = useState(mark?.note ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const stored = mark?.note ?? '';
  // The box follows the stored note when another call (or a fresh read) comes in.
  const storedKey = `${mark?.callId ?? ''}\n${stored}`;
  const [seenKey, setSeenKey] = useState(storedKey);
  if (seenKey !== storedKey) {
    setSeenKey(storedKey);
    setNote(stored);
  }

  const run = async (patch: MarkChange) => {
    setBusy(true);
    const problem = await change(patch);
    setBusy(false);
    setError(problem);
    return problem;
  };
  const toggleReviewed = async () => {
    const wasReviewed = mark?.reviewed ?? false;
    if ((await run({ reviewed: !wasReviewed })) === null && !wasReviewed) onReviewed?.();
  };
  const saveNote = () => void run({ note: note.trim() === '' ? null : note });
  const leaveOnEscape = (event: KeyboardEvent<HTMLElement>, revert?: () => void) => {
    if (event.key !== 'Escape' || !onLeave) return;
    event.preventDefault();
    revert?.();
    onLeave();
  };

  const flagValue = mark?.flag ? String(mark.flag.reasonId) : '';
  const choices = liveReasons(reasons);
  const removedFlag = mark?.flag?.removed ? mark.flag : null;
  return (
    <section className="review-panel" aria-labelledby={`${id}-title`}>
      <div className="calls-row">
        <h3 id={`${id}-title`} className="calls-title">
          QA review
        </h3>
        <span className="muted" role="status" data-testid="review-state">
          {markText(mark)}
        </span>
      </div>
      <p className="muted review-private">Kept on this computer only; never sent to the calling service.</p>
      <div className="review-controls">
        <Button
          variant={mark?.reviewed ? 'secondary' : 'primary'}
          aria-pressed={mark?.reviewed ?? false}
          disabled={!mark || busy}
          onClick={() => void toggleReviewed()}
        >
          {/* A toggle keeps one name; its state is aria-pressed (and the check mark). */}
          <span aria-hidden="true">{mark?.reviewed ? '✓ ' : ''}</span>
          Reviewed
        </Button>
        <Labelled className="calls-filter" label="Flag reason">
          {(fieldId) => (
            <select
              id={fieldId}
              ref={flagRef}
              className="select"
              value={flagValue}
              disabled={!mark}
              onChange={(e) => void run({ flagReasonId: e.target.value ? Number(e.target.value) : null })}
              onKeyDown={(e) => leaveOnEscape(e)}
            >
              <option value="">No flag</option>
              {choices.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.label}
                </option>
              ))}
              {removedFlag ? (
                <option value={removedFlag.reasonId} disabled>
                  {removedFlag.label} (removed)
                </option>
              ) : null}
            </select>
          )}
        </Labelled>
      </div>
      <Labelled className="review-note" label="Note">
        {(fieldId) => (
          <>
            <textarea
              id={fieldId}
              ref={noteRef}
              className="input"
              rows={3}
              maxLength={NOTE_MAX}
              value={note}
              disabled={!mark}
              aria-describedby={`${id}-note-help`}
              onChange={(e) => setNote(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                  e.preventDefault();
                  saveNote();
                } else leaveOnEscape(e, () => setNote(stored));
              }}
            />
            <span id={`${id}-note-help`} className="muted review-help">
              Ctrl+Enter saves{onLeave ? '; Escape goes back to the queue keys without saving' : ''}.
              {mark?.note && mark.notedBy
                ? ` Last saved by ${mark.notedBy} on ${formatDateTime(mark.notedAt)}.`
                : ''}
            </span>
          </>
        )}
      </Labelled>
      <div className="review-controls">
        <Button size="sm" disabled={!mark || busy || note === stored} onClick={saveNote}>
          Save note
        </Button>
      </div>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}

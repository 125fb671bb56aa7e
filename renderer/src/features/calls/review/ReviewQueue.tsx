import type { RefObject } from 'react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { CallDetail } from '../../../../../shared/ipc/channels/calls.ts';
import { Button } from '../../../components/Button.tsx';
import { desk } from '../../../desk/desk.ts';
import { formatCount, formatDateTime } from '../../../components/format.ts';
import { AudioPlayer } from '../AudioPlayer.tsx';
import { formatClock, shownText } from '../callFormat.ts';
import { OutcomeBadge } from '../callStatus.tsx';
import { useCalls } from '../callsStore.ts';
import { campaignLabel } from '../campaignNames.ts';
import { Labelled } from '../Labelled.tsx';
import { TranscriptView } from '../TranscriptView.tsx';
import { useCampaignLabels } from '../useCampaignLabels.ts';
import { QaReportButton } from './QaReportButton.tsx';
import type { QueueAction } from './queueKeys.ts';
import { QUEUE_KEYS, queueAction } from './queueKeys.ts';
import { ReasonsEditor } from './ReasonsEditor.tsx';
import { ReviewPanel } from './ReviewPanel.tsx';
import { useReview } from './reviewStore.ts';
import { useReviewMark } from './useReviewMark.ts';
import type { MarkChange } from './useReviewMark.ts';
import './review.css';

/** Calls walked at a time: the campaign's unreviewed calls when the queue was (re)loaded, oldest first. */
const QUEUE_WINDOW = 500;

/** The keys, always on screen (and in the shortcuts dialog). */
function KeyHelp() {
  return (
    <div className="queue-keys" aria-label="Review queue keys" role="group">
      <ul>
        {QUEUE_KEYS.map((k) => (
          <li key={k.action}>
            <kbd>{k.label}</kbd> {k.does}
          </li>
        ))}
        <li>
          <kbd>Esc</kbd> From the flag or note field, back to these keys
        </li>
      </ul>
    </div>
  );
}

/** The call being reviewed: what happened, its review, recording and transcript. */
function QueueCall({
  callId,
  headingRef,
  flagRef,
  noteRef,
  containerRef,
  onReviewed,
  onLeave,
  onChanged,
  markRef,
}: {
  callId: string;
  headingRef: RefObject<HTMLHeadingElement | null>;
  flagRef: RefObject<HTMLSelectElement | null>;
  noteRef: RefObject<HTMLTextAreaElement | null>;
  containerRef: RefObject<HTMLDivElement | null>;
  onReviewed: () => void;
  onLeave: () => void;
  /** After any change of the mark (the queue counts what is left). */
  onChanged: () => void;
  /** The queue's "r" goes through this call's mark. */
  markRef: RefObject<((reviewed: true) => Promise<string | null>) | null>;
}) {
  const [call, setCall] = useState<{ id: string; detail: CallDetail | null; error: string | null }>({
    id: callId,
    detail: null,
    error: null,
  });
  const { mark, change: changeMark } = useReviewMark(callId);
  const change = useCallback(
    async (patch: MarkChange) => {
      const problem = await changeMark(patch);
      if (problem === null) onChanged();
      return problem;
    },
    [changeMark, onChanged],
  );
  useEffect(() => {
    markRef.current = (reviewed) => change({ reviewed });
  }, [change, markRef]);
  useEffect(() => {
    let live = true;
    void desk()
      .calls.get({ callId })
      .then((r) => {
        if (live)
          setCall({ id: callId, detail: r.ok ? r.value.call : null, error: r.ok ? null : r.error.message });
      });
    return () => {
      live = false;
    };
  }, [callId]);
  const detail = call.id === callId ? call.detail : null;

  return (
    <div className="queue-call" ref={containerRef}>
      <div className="calls-row">
        <h3 className="calls-title" tabIndex={-1} ref={headingRef} data-testid="queue-call">
          {detail ? `Call with ${shownText(detail.name, detail.toNumber)}` : 'Loading the call…'}
        </h3>
        {detail ? <OutcomeBadge value={detail.outcome} /> : null}
      </div>
      {call.error && call.id === callId ? <p className="field-error">{call.error}</p> : null}
      {detail ? (
        <dl className="call-meta queue-meta" aria-label="Call details">
          <dt>Number</dt>
          <dd className="mono" data-testid="queue-number">
            {shownText(detail.toNumber)}
          </dd>
          <dt>Time</dt>
          <dd>{detail.attemptedAt ? formatDateTime(detail.attemptedAt) : 'Not dialled'}</dd>
          <dt>Duration</dt>
          <dd>{detail.callDuration === null ? '—' : formatClock(detail.callDuration)}</dd>
          <dt>Call id</dt>
          <dd className="mono">{detail.id}</dd>
        </dl>
      ) : null}
      <ReviewPanel
        mark={mark}
        change={change}
        flagRef={flagRef}
        noteRef={noteRef}
        onLeave={onLeave}
        onReviewed={onReviewed}
      />
      {detail ? (
        <>
          {detail.recording.playUrl ? (
            <AudioPlayer url={detail.recording.playUrl} label="Recording" />
          ) : (
            <p className="muted">No saved recording for this call.</p>
          )}
          <h4 className="calls-title">Transcript</h4>
          <TranscriptView
            turns={detail.transcript.length > 0 ? detail.transcript : null}
            raw={detail.transcriptRaw}
            calleeName={detail.name}
          />
        </>
      ) : null}
    </div>
  );
}

/**
 * The review queue: a campaign's unreviewed calls one at a time, driven from the keyboard
 * (j/k, r, f, n, Space; never while typing in a field).
 */
export function ReviewQueue() {
  const id = useId();
  const labels = useCampaignLabels();
  const campaigns = useCalls((s) => s.campaigns);
  const [campaign, setCampaign] = useState<string | null>(null);
  /** The snapshot walked, and the campaign it was read for (another one: still loading). */
  const [queue, setQueue] = useState<{
    for: string | null;
    ids: string[];
    loading: boolean;
    error: string | null;
  }>({ for: null, ids: [], loading: false, error: null });
  const [index, setIndex] = useState(0);
  const [left, setLeft] = useState<number | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const flagRef = useRef<HTMLSelectElement>(null);
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const callRef = useRef<HTMLDivElement>(null);
  const markRef = useRef<((reviewed: true) => Promise<string | null>) | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    void useReview.getState().load();
  }, []);
  const chosen = campaign ?? campaigns[0]?.bulkListId ?? null;

  const countLeft = useCallback(async (bulkListId: string) => {
    const r = await desk().calls.list({ filter: { bulkListId, review: 'unreviewed' }, offset: 0, limit: 1 });
    if (r.ok) setLeft(r.value.total);
  }, []);

  // The snapshot of the chosen campaign's unreviewed calls, read again on "Reload queue".
  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    if (!chosen) return;
    let live = true;
    void desk()
      .calls.list({
        filter: { bulkListId: chosen, review: 'unreviewed' },
        sort: { by: 'created_at', dir: 'asc' },
        offset: 0,
        limit: QUEUE_WINDOW,
      })
      .then((r) => {
        if (!live) return;
        setIndex(0);
        if (!r.ok) {
          setQueue({ for: chosen, ids: [], loading: false, error: r.error.message });
          return;
        }
        setQueue({ for: chosen, ids: r.value.rows.map((c) => c.id), loading: false, error: null });
        setLeft(r.value.total);
      });
    return () => {
      live = false;
    };
  }, [chosen, reloads]);

  const loading = queue.loading || (chosen !== null && queue.for !== chosen);
  const currentId = loading ? null : (queue.ids[index] ?? null);
  const focusCall = () => headingRef.current?.focus();
  // A call reached by moving in the queue gets the focus on its heading (screen readers read it;
  // Space plays from there); opening the tab leaves the focus where it is (the tab list).
  const focusOnArrival = useRef(false);
  useEffect(() => {
    if (currentId && focusOnArrival.current) headingRef.current?.focus();
    focusOnArrival.current = false;
  }, [currentId]);

  const move = useCallback(
    (step: 1 | -1) => {
      focusOnArrival.current = true;
      setIndex((i) => Math.max(0, Math.min(queue.ids.length - 1, i + step)));
      if ((step === 1 && index >= queue.ids.length - 1) || (step === -1 && index === 0))
        setMessage(
          step === 1 ? 'This is the last call of the queue.' : 'This is the first call of the queue.',
        );
      else setMessage(null);
    },
    [index, queue.ids.length],
  );

  const act = useCallback(
    async (action: QueueAction) => {
      switch (action) {
        case 'next':
          return move(1);
        case 'previous':
          return move(-1);
        case 'flag':
          return flagRef.current?.focus();
        case 'note':
          return noteRef.current?.focus();
        case 'play': {
          const audio = callRef.current?.querySelector('audio');
          if (!audio || !audio.currentSrc) {
            setMessage('This call has no recording to play.');
            return;
          }
          if (audio.paused) await audio.play().catch(() => setMessage('The recording could not be played.'));
          else audio.pause();
          return;
        }
        case 'reviewed': {
          const problem = await markRef.current?.(true);
          if (problem) setMessage(problem);
          else move(1);
        }
      }
    },
    [move],
  );
  const recount = useCallback(() => {
    if (chosen) void countLeft(chosen);
  }, [chosen, countLeft]);

  useEffect(() => {
    if (!currentId) return;
    const onKey = (event: KeyboardEvent) => {
      const action = queueAction(event);
      if (!action) return;
      event.preventDefault();
      void act(action);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [act, currentId]);

  return (
    <section className="panel review-queue" aria-labelledby={`${id}-title`}>
      <div className="calls-row">
        <h2 id={`${id}-title`} className="calls-title">
          Review queue
        </h2>
        <Labelled className="calls-filter" label="Campaign">
          {(fieldId) => (
            <select
              id={fieldId}
              className="select"
              value={chosen ?? ''}
              onChange={(e) => setCampaign(e.target.value || null)}
            >
              {campaigns.length === 0 ? <option value="">No campaign synced yet</option> : null}
              {campaigns.map((c) => (
                <option key={c.bulkListId} value={c.bulkListId}>
                  {campaignLabel(labels, c.bulkListId)} ({formatCount(c.calls)})
                </option>
              ))}
            </select>
          )}
        </Labelled>
        <span className="muted" role="status" data-testid="queue-progress">
          {loading
            ? 'Loading the queue…'
            : queue.ids.length === 0
              ? ''
              : `Call ${formatCount(index + 1)} of ${formatCount(queue.ids.length)}${left === null ? '' : ` · ${formatCount(left)} not reviewed`}`}
        </span>
        <Button
          size="sm"
          disabled={!chosen}
          onClick={() => {
            if (!chosen) return;
            setQueue((q) => ({ ...q, loading: true }));
            setReloads((n) => n + 1);
          }}
        >
          Reload queue
        </Button>
        {chosen ? <QaReportButton bulkListId={chosen} /> : null}
      </div>
      <KeyHelp />
      {message ? (
        <p className="muted" role="status" data-testid="queue-message">
          {message}
        </p>
      ) : null}
      {queue.error ? <p className="field-error">{queue.error}</p> : null}
      {!chosen ? (
        <p className="muted">Sync the calls of a campaign first: the queue walks a campaign's calls.</p>
      ) : !loading && queue.ids.length === 0 && !queue.error ? (
        <p className="muted" data-testid="queue-empty">
          Every call of this campaign is reviewed.
        </p>
      ) : currentId ? (
        <>
          <div className="review-controls" aria-label="Move in the queue" role="group">
            <Button size="sm" disabled={index === 0} onClick={() => move(-1)}>
              Previous call (K)
            </Button>
            <Button size="sm" disabled={index >= queue.ids.length - 1} onClick={() => move(1)}>
              Next call (J)
            </Button>
          </div>
          <QueueCall
            key={currentId}
            callId={currentId}
            headingRef={headingRef}
            flagRef={flagRef}
            noteRef={noteRef}
            containerRef={callRef}
            markRef={markRef}
            onLeave={focusCall}
            onChanged={recount}
            onReviewed={() => move(1)}
          />
        </>
      ) : null}
      <ReasonsEditor />
    </section>
  );
}

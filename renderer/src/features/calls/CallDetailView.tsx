import { useEffect, useRef, useState } from 'react';
import type { CallDetail } from '../../../../shared/ipc/channels/calls.ts';
import { Button } from '../../components/Button.tsx';
import { desk } from '../../desk/desk.ts';
import { formatBytes, formatCost, formatDateTime } from '../../components/format.ts';
import { AudioPlayer } from './AudioPlayer.tsx';
import { statusText, subStatusText } from '../../../../shared/domain/callOutcome.ts';
import { formatClock, humanize, shownText } from './callFormat.ts';
import { OutcomeBadge } from './callStatus.tsx';
import { useCalls } from './callsStore.ts';
import { TranscriptView } from './TranscriptView.tsx';
import { CallReview } from './review/CallReview.tsx';
import { campaignLabel } from './campaignNames.ts';
import { useCampaignLabels } from './useCampaignLabels.ts';
import { DoNotCallButton } from '../../shared-doNotCall/DoNotCallButton.tsx';

const RECORDING_TEXT: Record<CallDetail['recording']['state'], string> = {
  saved: 'Saved on this computer.',
  pending: 'Not saved yet: the next sync saves it (while its link still works).',
  expired: 'The recording link expired before it was saved; the service no longer has it.',
  failed: 'Saving the recording failed.',
  none: 'This call has no recording.',
};

/** One call: metadata, the recording (played from the saved file), the transcript as a conversation. */
export function CallDetailView({ callId }: { callId: string }) {
  const labels = useCampaignLabels();
  const openCall = useCalls((s) => s.openCall);
  const version = useCalls((s) => s.version);
  const [call, setCall] = useState<CallDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    let live = true;
    void desk()
      .calls.get({ callId })
      .then((r) => {
        if (!live) return;
        if (r.ok) {
          setCall(r.value.call);
          setError(null);
        } else setError(r.error.message);
      });
    return () => {
      live = false;
    };
  }, [callId, version]);

  useEffect(() => {
    titleRef.current?.focus();
  }, [callId]);

  const rec = call?.recording;
  return (
    <section className="panel" aria-labelledby="call-detail-title">
      <div className="calls-row">
        <Button variant="ghost" onClick={() => openCall(null)}>
          Back to calls
        </Button>
        <h2 id="call-detail-title" className="calls-title" tabIndex={-1} ref={titleRef}>
          Call {call?.name ? `with ${shownText(call.name)}` : callId}
        </h2>
        {call ? <OutcomeBadge value={call.outcome} /> : null}
        {call?.toNumber ? <DoNotCallButton key={call.id} target={{ callIds: [call.id] }} /> : null}
      </div>
      {error ? <p className="field-error">{error}</p> : null}
      {!call ? (
        error ? null : (
          <p className="muted" role="status">
            Loading the call…
          </p>
        )
      ) : (
        <div className="call-detail">
          <dl className="call-meta" aria-label="Call details">
            <dt>Call id</dt>
            <dd className="mono">{call.id}</dd>
            <dt>Name</dt>
            <dd>{shownText(call.name)}</dd>
            <dt>Number</dt>
            <dd className="mono">{shownText(call.toNumber)}</dd>
            <dt>From</dt>
            <dd className="mono">{shownText(call.fromNumbers.join(', ') || call.inboundFrom || null)}</dd>
            <dt>Time</dt>
            <dd data-testid="call-time">
              {call.attemptedAt ? formatDateTime(call.attemptedAt) : 'Not dialled'}
            </dd>
            <dt>Queued</dt>
            <dd>{formatDateTime(call.createdAt)}</dd>
            <dt>Status</dt>
            <dd>
              {statusText(call.status)}
              {call.subStatus ? ` · ${subStatusText(call.subStatus)}` : ''}
            </dd>
            <dt>Duration</dt>
            <dd>{call.callDuration === null ? '—' : formatClock(call.callDuration)}</dd>
            <dt>Cost</dt>
            <dd>{formatCost(call.callCost)}</dd>
            <dt>Voicemail</dt>
            <dd>{call.voicemail === null ? '—' : call.voicemail ? 'Yes' : 'No'}</dd>
            <dt>Type</dt>
            <dd>{humanize(call.callType)}</dd>
            <dt>Agent</dt>
            <dd>{shownText(call.agentName, call.agentId)}</dd>
            <dt>Campaign</dt>
            <dd>
              {campaignLabel(labels, call.bulkListId)}
              {call.bulkListId ? (
                <>
                  {' '}
                  <span className="mono" data-testid="campaign-id">
                    {shownText(call.bulkListId)}
                  </span>{' '}
                  <Button
                    size="sm"
                    onClick={() => void navigator.clipboard?.writeText(call.bulkListId ?? '')}
                  >
                    Copy campaign id
                  </Button>
                </>
              ) : null}
            </dd>
            <dt>Recording</dt>
            <dd>
              {humanize(rec?.state)}
              {rec?.bytes ? ` · ${formatBytes(rec.bytes)}` : ''}
            </dd>
            {rec?.path ? (
              <>
                <dt>File</dt>
                <dd className="mono">{rec.path}</dd>
              </>
            ) : null}
            <dt>Synced</dt>
            <dd>
              {formatDateTime(call.firstSeenAt)} (updated {formatDateTime(call.updatedAt)})
            </dd>
          </dl>
          <div className="panel">
            <CallReview callId={call.id} />
            {rec?.playUrl ? (
              <AudioPlayer url={rec.playUrl} label="Recording" />
            ) : (
              <p className="muted">
                Recording: {rec ? RECORDING_TEXT[rec.state] : '—'}
                {rec?.error ? ` (${rec.error})` : ''}
              </p>
            )}
            <h3 className="calls-title">Transcript</h3>
            <TranscriptView
              turns={call.transcript.length > 0 ? call.transcript : null}
              raw={call.transcriptRaw}
              calleeName={call.name}
            />
            <details>
              <summary>Record as received</summary>
              <pre className="transcript-raw">{call.rawJson}</pre>
            </details>
          </div>
        </div>
      )}
    </section>
  );
}

import type { CallDetail } from '../../../../shared/ipc/channels/calls.ts';

type TranscriptTurn = CallDetail['transcript'][number];

/**
 * The transcript as a conversation: the agent's turns on the left, the person called on the
 * right. A transcript that could not be parsed is shown as its raw text, never hidden.
 */
export function TranscriptView({
  turns,
  raw,
  calleeName,
}: {
  turns: TranscriptTurn[] | null;
  raw: string | null;
  calleeName?: string | null;
}) {
  if (turns && turns.length > 0) {
    return (
      <ol className="transcript" aria-label="Transcript">
        {turns.map((turn, i) => {
          const caller = turn.speaker === 'user';
          const who = caller ? calleeName || 'Caller' : turn.speaker === 'agent' ? 'Agent' : 'Other';
          return (
            <li key={i} className={`turn ${caller ? 'is-user' : 'is-bot'}`}>
              <span className="turn-speaker">{who}</span>
              {turn.text}
            </li>
          );
        })}
      </ol>
    );
  }
  if (raw && raw.trim()) {
    return (
      <>
        <p className="muted">This transcript could not be read as turns; here is its text as received.</p>
        <pre className="transcript-raw">{raw}</pre>
      </>
    );
  }
  return <p className="muted">This call has no transcript.</p>;
}

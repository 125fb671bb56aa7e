import type { PromptPiece } from '../../../../shared/ipc/channels/agents.ts';

/**
 * A prompt as written, with every `@{{variable}}` highlighted. The placeholder keeps its exact text
 * so what is read is what the service receives; a hidden word tells screen readers it is a variable.
 */
export function PromptView({ pieces, label }: { pieces: readonly PromptPiece[]; label: string }) {
  if (pieces.length === 0) return <p className="muted">This version has no prompt text.</p>;
  return (
    <div className="prompt-text" role="region" aria-label={label} tabIndex={0}>
      <PromptPieces pieces={pieces} />
    </div>
  );
}

/** Text and highlighted placeholders, inline. */
export function PromptPieces({ pieces }: { pieces: readonly PromptPiece[] }) {
  return pieces.map((p, i) =>
    p.kind === 'text' ? (
      <span key={i}>{p.text}</span>
    ) : (
      <mark key={i} className="placeholder" data-variable={p.name}>
        <span className="visually-hidden">variable </span>
        {p.text}
      </mark>
    ),
  );
}

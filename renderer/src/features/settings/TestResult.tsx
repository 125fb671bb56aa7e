import { formatCredits, formatWhen } from '../../components/format.ts';
import { CheckIcon, ErrorIcon } from '../../components/icons.tsx';

export interface TestOutcomeView {
  ok: boolean;
  /** Shown exactly as the back end wrote it ("Connected", "Invalid credentials", …). */
  message: string;
  credits: number | null;
  at: string;
}

/** One connection-test outcome: icon + the back end's message + credits when reported. */
export function TestResult({ outcome, showWhen = false }: { outcome: TestOutcomeView; showWhen?: boolean }) {
  return (
    <span className={`test-result ${outcome.ok ? 'test-ok' : 'test-failed'}`}>
      <span className="test-icon">{outcome.ok ? <CheckIcon size={14} /> : <ErrorIcon size={14} />}</span>
      <span className="test-text">
        <span className="test-message">{outcome.message}</span>
        {outcome.credits !== null ? (
          <span className="test-credits">
            {' '}
            <span aria-hidden="true">·</span> {formatCredits(outcome.credits)} credits
          </span>
        ) : null}
        {showWhen ? <span className="test-when"> · {formatWhen(outcome.at)}</span> : null}
      </span>
    </span>
  );
}

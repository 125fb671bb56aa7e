import type { KeyboardEvent } from 'react';
import { useId } from 'react';
import { Button } from '../components/Button.tsx';
import { CheckboxField } from '../components/Field.tsx';
import { formatCount } from '../components/format.ts';
import { useListAgent } from './listAgentStore.ts';

/**
 * The prompt as the service would say it to one row: values substituted and highlighted, missing
 * ones flagged. Keyboard: j or ↓ next row, k or ↑ previous row, n next row with a problem,
 * Shift+N the previous one.
 */
export function PromptPreviewPane() {
  const id = useId();
  const preview = useListAgent((s) => s.preview);
  const previewError = useListAgent((s) => s.previewError);
  const pos = useListAgent((s) => s.pos);
  const step = useListAgent((s) => s.step);
  const nextProblem = useListAgent((s) => s.nextProblem);
  const extractFirstName = useListAgent((s) => s.extractFirstName);
  const setExtractFirstName = useListAgent((s) => s.setExtractFirstName);
  const problemNote = useListAgent((s) => s.problemNote);
  const total = preview?.total ?? 0;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const key = event.key;
    if (key === 'j' || key === 'ArrowDown') void step(1);
    else if (key === 'k' || key === 'ArrowUp') void step(-1);
    else if (key === 'n') void nextProblem('next');
    else if (key === 'N') void nextProblem('previous');
    else return;
    event.preventDefault();
  };

  return (
    <section className="preview-pane" aria-labelledby={`${id}-title`} data-testid="prompt-preview">
      <div className="section-header">
        <h4 id={`${id}-title`} className="subsection-title">
          Prompt preview
        </h4>
        <CheckboxField
          label="Extract first name"
          checked={extractFirstName}
          onChange={(on) => void setExtractFirstName(on)}
        />
      </div>
      <div className="action-row">
        <Button size="sm" disabled={pos <= 0} onClick={() => void step(-1)}>
          Previous row
        </Button>
        <Button size="sm" disabled={pos >= total - 1} onClick={() => void step(1)}>
          Next row
        </Button>
        <Button size="sm" onClick={() => void nextProblem('previous')}>
          Previous problem
        </Button>
        <Button size="sm" onClick={() => void nextProblem('next')}>
          Next row with a problem
        </Button>
      </div>
      <p className="preview-position" role="status" data-testid="preview-position">
        {preview
          ? `Row ${preview.row} · ${formatCount(preview.pos + 1)} of ${formatCount(preview.total)}${
              preview.missing.length ? ` · missing: ${preview.missing.join(', ')}` : ''
            }`
          : previewError
            ? ''
            : total === 0
              ? 'No row to preview.'
              : 'Loading…'}
        {problemNote ? ` · ${problemNote}` : ''}
      </p>
      {previewError ? <p className="field-error">{previewError}</p> : null}
      {preview?.firstName ? (
        <p className="preview-first-name" data-testid="preview-first-name">
          The service would say <strong>{preview.firstName.used || '(nothing)'}</strong>; the file has “
          {preview.firstName.original}”.
        </p>
      ) : null}
      <div
        className="prompt-text preview-text"
        role="region"
        aria-label={`Prompt for row ${preview?.row ?? ''}`}
        aria-describedby={`${id}-keys`}
        tabIndex={0}
        onKeyDown={onKeyDown}
      >
        {preview
          ? preview.segments.map((s, i) =>
              s.kind === 'text' ? (
                <span key={i}>{s.text}</span>
              ) : s.kind === 'value' ? (
                <mark
                  key={i}
                  className="preview-value"
                  data-variable={s.name}
                  title={`${s.name} from ${s.column}`}
                >
                  {s.value}
                </mark>
              ) : (
                <mark key={i} className="preview-missing" data-variable={s.name}>
                  {`@{{${s.name}}}`} missing{s.column ? ` (${s.column} is empty)` : ' (no column)'}
                </mark>
              ),
            )
          : null}
      </div>
      <p className="field-hint" id={`${id}-keys`}>
        In the preview: j or ↓ next row, k or ↑ previous row, n next row with a problem, Shift+N previous one.
      </p>
    </section>
  );
}

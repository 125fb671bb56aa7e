import { useEffect, useId, useState } from 'react';
import type { z } from 'zod';
import type { testCallViewSchema } from '../../../../shared/ipc/channels/campaigns.ts';
import { Button } from '../../components/Button.tsx';
import { TextField } from '../../components/Field.tsx';
import { desk } from '../../desk/desk.ts';
import { useListAgent } from '../../shared-listAgent/listAgentStore.ts';
import { parseTestCallNumber, testCallTiming } from '../../../../shared/domain/testCall.ts';
import { useCampaigns } from './campaignsStore.ts';

type TestCall = z.infer<typeof testCallViewSchema>;

const POLL_MS = 2000;

/** One call to the operator's own number with a chosen row's variables, followed until it ends. */
export function TestCallPanel() {
  const id = useId();
  const settings = useCampaigns((s) => s.settings);
  const previewRow = useListAgent((s) => s.preview?.row ?? null);
  const [mobile, setMobile] = useState('');
  const [row, setRow] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [call, setCall] = useState<TestCall | null>(null);
  const [busy, setBusy] = useState(false);
  const [timing, setTiming] = useState<'now' | 'campaign-window'>('now');
  const parsed = mobile.trim() ? parseTestCallNumber(mobile, settings.countryCode) : null;
  // Said before the call is placed: whether it rings now, or when and why it waits.
  const [nowMs, setNowMs] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNowMs(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  let plannedNote: string | null;
  try {
    plannedNote = testCallTiming({
      mode: timing,
      nowMs,
      timezone: settings.timezone,
      windowStart: settings.call.windowStart,
      windowEnd: settings.call.windowEnd,
    }).note;
  } catch {
    plannedNote = null; // an unknown timezone: the settings check names it
  }

  // Follow the call until it ends.
  const callId = call && !call.ended ? call.callId : null;
  useEffect(() => {
    if (!callId) return;
    const timer = setInterval(() => {
      void desk()
        .campaigns.testCallStatus({ callId })
        .then((r) => {
          // The status answer carries no number or note: keep the placing answer's.
          if (r.ok) setCall((prev) => ({ ...prev, ...r.value }));
          else setError(r.error.message);
        });
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [callId]);

  const rowNumber = Number(row || previewRow || 0);
  const place = async () => {
    setError(null);
    setCall(null);
    if (!Number.isInteger(rowNumber) || rowNumber < 2) {
      setError('Row: give the spreadsheet row whose values the call uses (2 or more).');
      return;
    }
    setBusy(true);
    if (parsed && !parsed.ok) {
      setError(parsed.message);
      return;
    }
    const result = await desk().campaigns.testCall({
      settings,
      mobileNumber: mobile,
      row: rowNumber,
      timing,
    });
    setBusy(false);
    if (result.ok) setCall(result.value);
    else
      setError(result.error.field ? `${result.error.field}: ${result.error.message}` : result.error.message);
  };

  return (
    <section className="panel" aria-labelledby={`${id}-title`} data-testid="test-call">
      <h3 id={`${id}-title`} className="subsection-title">
        Test call
      </h3>
      <div className="settings-grid">
        <TextField
          label="Number to call"
          value={mobile}
          onChange={(v) => {
            setMobile(v);
            setError(null); // the refusal was about the number it replaces
          }}
          error={parsed && !parsed.ok ? parsed.message : undefined}
          hint={
            parsed?.ok
              ? `Will call ${parsed.e164}.`
              : `Your own, as in a contact list: national numbers use the country code ${settings.countryCode || '+91'}.`
          }
        />
        <TextField
          label="Row"
          type="number"
          value={row}
          onChange={(v) => {
            setRow(v);
            setError(null);
          }}
          hint={
            previewRow ? `Empty: row ${previewRow}, the one in the preview.` : 'The spreadsheet row to use.'
          }
        />
      </div>
      <fieldset className="campaign-fieldset">
        <legend>When it rings</legend>
        <div className="radio-row">
          <label>
            <input
              type="radio"
              name={`${id}-timing`}
              checked={timing === 'now'}
              onChange={() => setTiming('now')}
            />{' '}
            Now (its own window)
          </label>
          <label>
            <input
              type="radio"
              name={`${id}-timing`}
              checked={timing === 'campaign-window'}
              onChange={() => setTiming('campaign-window')}
            />{' '}
            In the campaign’s daily window
          </label>
        </div>
        {plannedNote ? (
          <p className="field-hint" data-testid="test-call-timing">
            {plannedNote}
          </p>
        ) : null}
      </fieldset>
      <Button onClick={() => void place()} busy={busy} disabled={!mobile.trim() || settings.listId === null}>
        Place test call
      </Button>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {call ? (
        <div className="test-call-result">
          <p role="status">
            Call {call.callId}
            {call.calledNumber ? ` to ${call.calledNumber}` : ''}: {call.status}
            {call.ended ? ' (ended)' : ' (following…)'}
          </p>
          {call.note ? <p className="field-hint">{call.note}</p> : null}
          {call.ended ? (
            call.transcript.length > 0 ? (
              <>
                <h4 className="subsection-title" id={`${id}-transcript`}>
                  Transcript
                </h4>
                <ol className="transcript" aria-labelledby={`${id}-transcript`}>
                  {call.transcript.map((t, i) => (
                    <li key={i}>
                      <strong>{t.speaker}:</strong> {t.text}
                    </li>
                  ))}
                </ol>
              </>
            ) : (
              <p className="muted">The service gave no transcript for this call.</p>
            )
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

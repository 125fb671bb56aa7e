import { useEffect, useId, useState } from 'react';
import type { CampaignCallSettings, FieldError } from '../../../../shared/ipc/channels/campaigns.ts';
import { Button } from '../../components/Button.tsx';
import { CheckboxField, TextField } from '../../components/Field.tsx';
import { formatWhen } from '../../components/format.ts';
import { CALL_PURPOSES, PURPOSE_LABELS, checkCallingHours } from '../../../../shared/domain/callingHours.ts';
import type { CallPurpose } from '../../../../shared/domain/callingHours.ts';
import { campaignTimeToInstant } from '../../../../shared/domain/dates.ts';
import { useCampaigns } from './campaignsStore.ts';
import { campaignTimeToPicker, errorFor, pickerToCampaignTime } from './settingsForm.ts';

const TIME_ZONES: readonly string[] = (() => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['Asia/Kolkata', 'UTC'];
  }
})();

/** A whole-number input that lets the operator type freely; an unreadable value is sent as -1 (refused, named). */
function NumberField({
  label,
  value,
  onChange,
  error,
  hint,
  min,
  max,
}: {
  label: string;
  value: number;
  onChange: (n: number) => void;
  error?: string | undefined;
  hint?: string;
  min: number;
  max: number;
}) {
  const [text, setText] = useState(String(value));
  // A value set from outside (a draft opened) replaces what was typed; -1 is our "unreadable".
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    if (value !== -1 && Number(text) !== value) setText(String(value));
  }
  return (
    <TextField
      label={label}
      type="number"
      inputMode="numeric"
      min={min}
      max={max}
      value={text}
      error={error}
      hint={hint}
      onChange={(t) => {
        setText(t);
        const n = Number(t);
        onChange(t.trim() !== '' && Number.isInteger(n) ? n : -1);
      }}
    />
  );
}

function CallSettings({ errors }: { errors: FieldError[] }) {
  const call = useCampaigns((s) => s.settings.call);
  const update = useCampaigns((s) => s.update);
  const set = (patch: Partial<CampaignCallSettings>) => update({ call: { ...call, ...patch } });
  const err = (f: keyof CampaignCallSettings) => errorFor(errors, `call.${f}`);
  return (
    <fieldset className="campaign-fieldset">
      <legend>Calling (call_config)</legend>
      <div className="settings-grid">
        <TextField
          label="Daily window from"
          type="time"
          value={call.windowStart}
          error={err('windowStart')}
          onChange={(v) => set({ windowStart: v })}
        />
        <TextField
          label="Daily window to"
          type="time"
          value={call.windowEnd}
          error={err('windowEnd')}
          onChange={(v) => set({ windowEnd: v })}
        />
        <NumberField
          label="Retries"
          min={0}
          max={10}
          value={call.retryCount}
          error={err('retryCount')}
          onChange={(n) => set({ retryCount: n })}
        />
        <NumberField
          label="Retry after busy (minutes)"
          min={0}
          max={10080}
          value={call.retryBusyMinutes}
          error={err('retryBusyMinutes')}
          onChange={(n) => set({ retryBusyMinutes: n })}
        />
        <NumberField
          label="Retry after not picked (minutes)"
          min={0}
          max={10080}
          value={call.retryNotPickedMinutes}
          error={err('retryNotPickedMinutes')}
          onChange={(n) => set({ retryNotPickedMinutes: n })}
        />
        <NumberField
          label="Retry after failed (minutes)"
          min={0}
          max={10080}
          value={call.retryFailedMinutes}
          error={err('retryFailedMinutes')}
          onChange={(n) => set({ retryFailedMinutes: n })}
        />
        <NumberField
          label="Idle warning after (seconds)"
          min={0}
          max={86400}
          value={call.idleTimeoutWarningSeconds}
          error={err('idleTimeoutWarningSeconds')}
          onChange={(n) => set({ idleTimeoutWarningSeconds: n })}
        />
        <NumberField
          label="Idle hang-up after (seconds)"
          min={0}
          max={86400}
          value={call.idleTimeoutEndSeconds}
          error={err('idleTimeoutEndSeconds')}
          onChange={(n) => set({ idleTimeoutEndSeconds: n })}
        />
        <NumberField
          label="Max call length (seconds)"
          min={1}
          max={86400}
          value={call.maxCallLengthSeconds}
          error={err('maxCallLengthSeconds')}
          onChange={(n) => set({ maxCallLengthSeconds: n })}
        />
      </div>
      <CallingHoursField errors={errors} />
    </fieldset>
  );
}

/** The window's warning against the recipients' permitted hours, or null (an unknown zone: none). */
function hoursWarningOf(s: ReturnType<typeof useCampaigns.getState>['settings']): string | null {
  const start = campaignTimeToInstant(s.start, s.timezone);
  try {
    return (
      checkCallingHours({
        countryCode: s.countryCode,
        purpose: s.purpose,
        windowStart: s.call.windowStart,
        windowEnd: s.call.windowEnd,
        timezone: s.timezone,
        atMs: start.ok ? start.value : Date.now(),
      })?.warning ?? null
    );
  } catch {
    return null;
  }
}

/** Why the recipients are called (it sets their permitted hours), and the warning to acknowledge. */
function CallingHoursField({ errors }: { errors: FieldError[] }) {
  const id = useId();
  const s = useCampaigns((st) => st.settings);
  const update = useCampaigns((st) => st.update);
  const warning = hoursWarningOf(s);
  const overnight = s.call.windowEnd < s.call.windowStart;
  return (
    <div className="calling-hours" data-testid="calling-hours">
      <div className="field">
        <label className="field-label" htmlFor={`${id}-purpose`}>
          Purpose of the calls
        </label>
        <select
          id={`${id}-purpose`}
          className="select"
          value={s.purpose}
          aria-describedby={`${id}-purpose-hint`}
          onChange={(e) => update({ purpose: e.target.value as CallPurpose })}
        >
          {CALL_PURPOSES.map((p) => (
            <option key={p} value={p}>
              {PURPOSE_LABELS[p]}
            </option>
          ))}
        </select>
        <p className="field-hint" id={`${id}-purpose-hint`}>
          Sets the hours the recipients may be called (India: promotional 09:00–21:00, loan recovery
          08:00–19:00, local time).
        </p>
      </div>
      {overnight ? (
        <p className="field-hint" data-testid="overnight-note">
          The window {s.call.windowStart}–{s.call.windowEnd} spans midnight: calls go from{' '}
          {s.call.windowStart} until {s.call.windowEnd} the next morning.
        </p>
      ) : null}
      {warning ? (
        <div role="note" className="warn-text">
          <p>{warning}</p>
          <CheckboxField
            label="I have checked: these calls may be made in this window"
            checked={s.hoursAcknowledged}
            error={
              errorFor(errors, 'hoursAcknowledged') ? 'Acknowledge this, or change the window.' : undefined
            }
            onChange={(on) => update({ hoursAcknowledged: on })}
          />
        </div>
      ) : null}
    </div>
  );
}

/** Caller numbers or a number pool (exactly one), chosen from the workspace's cached numbers. */
function NumberSourceField({ errors }: { errors: FieldError[] }) {
  const id = useId();
  const source = useCampaigns((s) => s.settings.numberSource);
  const update = useCampaigns((s) => s.update);
  const numbers = useCampaigns((s) => s.numbers);
  const numbersError = useCampaigns((s) => s.numbersError);
  const loadNumbers = useCampaigns((s) => s.loadNumbers);
  const [refreshing, setRefreshing] = useState(false);
  const error = errorFor(errors, 'numberSource');
  useEffect(() => {
    void loadNumbers();
  }, [loadNumbers]);

  const chosen = source.kind === 'numbers' ? source.fromNumbers : [];
  const toggle = (number: string, on: boolean) =>
    update({
      numberSource: {
        kind: 'numbers',
        fromNumbers: on
          ? [...chosen.filter((n) => n !== number), number]
          : chosen.filter((n) => n !== number),
      },
    });

  return (
    <fieldset
      className={`campaign-fieldset${error ? ' field-invalid' : ''}`}
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend>Caller numbers or number pool</legend>
      <div className="radio-row">
        <label>
          <input
            type="radio"
            name={`${id}-kind`}
            checked={source.kind === 'numbers'}
            onChange={() => update({ numberSource: { kind: 'numbers', fromNumbers: [] } })}
          />{' '}
          Caller numbers
        </label>
        <label>
          <input
            type="radio"
            name={`${id}-kind`}
            checked={source.kind === 'pool'}
            onChange={() => update({ numberSource: { kind: 'pool', numberPoolId: '' } })}
          />{' '}
          Number pool
        </label>
      </div>
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
      {source.kind === 'numbers' ? (
        numbers && numbers.numbers.length > 0 ? (
          <ul className="number-choices">
            {numbers.numbers.map((n) => (
              <li key={n.id}>
                <label>
                  <input
                    type="checkbox"
                    checked={chosen.includes(n.id)}
                    onChange={(e) => toggle(n.id, e.target.checked)}
                  />{' '}
                  <span className="mono">{n.number}</span>
                  {n.label ? ` ${n.label}` : ''}
                </label>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No caller numbers known for this workspace yet: refresh them.</p>
        )
      ) : (
        <div className="field">
          <label className="field-label" htmlFor={`${id}-pool`}>
            Number pool
          </label>
          <select
            id={`${id}-pool`}
            className="select"
            value={source.numberPoolId}
            onChange={(e) => update({ numberSource: { kind: 'pool', numberPoolId: e.target.value } })}
          >
            <option value="">— choose a pool —</option>
            {(numbers?.poolDetails ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} ({p.numbers.join(', ')})
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="action-row">
        <Button
          size="sm"
          busy={refreshing}
          onClick={() => {
            setRefreshing(true);
            void loadNumbers(true).finally(() => setRefreshing(false));
          }}
        >
          Refresh numbers
        </Button>
        <span className="field-hint" role="status">
          {numbersError ??
            numbers?.lastError ??
            (numbers?.syncedAt ? `Numbers read ${formatWhen(numbers.syncedAt)}` : 'Numbers never read yet')}
        </span>
      </div>
    </fieldset>
  );
}

/** Every setting of the campaign, each with its problem shown beside it. */
export function SettingsForm() {
  const s = useCampaigns((st) => st.settings);
  const errors = useCampaigns((st) => st.errors);
  const update = useCampaigns((st) => st.update);
  const id = useId();
  const err = (f: string) => errorFor(errors, f);

  return (
    <section className="panel" aria-labelledby={`${id}-title`} data-testid="campaign-settings">
      <h3 id={`${id}-title`} className="subsection-title">
        Settings
      </h3>
      <div className="settings-grid">
        <TextField
          label="Campaign name"
          value={s.name}
          error={err('name')}
          onChange={(v) => update({ name: v })}
        />
        <TextField
          label="Country code"
          value={s.countryCode}
          error={err('countryCode')}
          hint="+91 or IN"
          onChange={(v) => update({ countryCode: v })}
        />
        <TextField
          label="Campaign start"
          type="datetime-local"
          value={campaignTimeToPicker(s.start)}
          error={err('start')}
          hint={`In ${s.timezone.trim() || 'the campaign’s timezone'}; must be in the future.`}
          onChange={(v) => update({ start: pickerToCampaignTime(v) })}
        />
        <TextField
          label="Campaign end"
          type="datetime-local"
          value={campaignTimeToPicker(s.end)}
          error={err('end')}
          hint={`In ${s.timezone.trim() || 'the campaign’s timezone'}; after the start.`}
          onChange={(v) => update({ end: pickerToCampaignTime(v) })}
        />
        <TextField
          label="Timezone"
          value={s.timezone}
          error={err('timezone')}
          list={`${id}-zones`}
          hint="An IANA name such as Asia/Kolkata."
          onChange={(v) => update({ timezone: v })}
        />
        <datalist id={`${id}-zones`}>
          {TIME_ZONES.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
        <NumberField
          label="Concurrency (%)"
          min={0}
          max={100}
          value={s.concurrency}
          error={err('concurrency')}
          hint="0 to 100."
          onChange={(n) => update({ concurrency: n })}
        />
        <TextField
          label="Callback URL"
          optional
          value={s.callbackUrl}
          error={err('callbackUrl')}
          onChange={(v) => update({ callbackUrl: v })}
        />
      </div>
      <NumberSourceField errors={errors} />
      <CallSettings errors={errors} />
      <div className="settings-grid">
        <CheckboxField
          label="Remove invalid rows"
          checked={s.removeInvalid}
          onChange={(on) => update({ removeInvalid: on })}
          hint="The service drops rows it cannot call instead of refusing the file."
        />
        <CheckboxField
          label="Transliterate names"
          checked={s.transliterateNames}
          onChange={(on) => update({ transliterateNames: on })}
        />
      </div>
    </section>
  );
}

import type { FormEvent } from 'react';
import { useEffect, useId, useRef, useState } from 'react';
import { EVENT_TYPES, SUBSCRIPTION_METHODS } from '../../../../shared/ipc/channels/agents.ts';
import { Button } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { TextField } from '../../components/Field.tsx';
import type { EditHeader, EditSubscription, SubscriptionErrors } from './subscriptionForm.ts';
import { EVENT_LABELS, validateSubscription } from './subscriptionForm.ts';

/**
 * Add or edit one subscription (kept in the editor's list until Save). Header values are typed into
 * password fields and shown masked afterwards; a stored header left blank keeps its value.
 */
export function SubscriptionDialog({
  title,
  initial,
  onDone,
  onClose,
}: {
  title: string;
  initial: EditSubscription;
  onDone: (sub: EditSubscription) => void;
  onClose: () => void;
}) {
  const id = useId();
  const [sub, setSub] = useState<EditSubscription>(initial);
  const [errors, setErrors] = useState<SubscriptionErrors>({});
  const [round, setRound] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (round > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [round]);

  const patch = (next: Partial<EditSubscription>) => {
    setSub((s) => ({ ...s, ...next }));
    setErrors({});
  };
  const setHeader = (index: number, next: Partial<EditHeader>) =>
    patch({ headers: sub.headers.map((h, i) => (i === index ? { ...h, ...next } : h)) });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateSubscription(sub);
    if (Object.keys(found).length > 0) {
      setErrors(found);
      setRound((n) => n + 1);
      return;
    }
    onDone({
      ...sub,
      callbackUrl: sub.callbackUrl.trim(),
      headers: sub.headers.map((h) => ({ ...h, name: h.name.trim() })),
    });
  };

  return (
    <Dialog open title={title} onClose={onClose}>
      <form className="form" ref={formRef} onSubmit={submit} noValidate>
        <div className="dialog-body">
          <fieldset
            className="fieldset"
            aria-describedby={errors.eventTypes ? `${id}-events-error` : undefined}
          >
            <legend className="field-label">Event types</legend>
            <div className="event-choices">
              {EVENT_TYPES.map((type) => (
                <label key={type} className="check-line">
                  <input
                    type="checkbox"
                    checked={sub.eventTypes.includes(type)}
                    aria-invalid={errors.eventTypes ? true : undefined}
                    onChange={(e) =>
                      patch({
                        eventTypes: e.target.checked
                          ? EVENT_TYPES.filter((t) => t === type || sub.eventTypes.includes(t))
                          : sub.eventTypes.filter((t) => t !== type),
                      })
                    }
                  />
                  <span>{EVENT_LABELS[type]}</span> <code className="muted">{type}</code>
                </label>
              ))}
            </div>
            {errors.eventTypes ? (
              <p className="field-error" id={`${id}-events-error`}>
                {errors.eventTypes}
              </p>
            ) : null}
          </fieldset>
          <TextField
            label="Callback URL"
            value={sub.callbackUrl}
            onChange={(callbackUrl) => patch({ callbackUrl })}
            error={errors.callbackUrl}
            hint="Where the service sends the events: an http:// or https:// address."
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
          />
          <div className="field">
            <label className="field-label" htmlFor={`${id}-method`}>
              Method
            </label>
            <select
              id={`${id}-method`}
              className="select"
              value={sub.method}
              onChange={(e) => patch({ method: e.target.value })}
              aria-invalid={errors.method ? true : undefined}
              aria-describedby={errors.method ? `${id}-method-error` : undefined}
            >
              {SUBSCRIPTION_METHODS.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
            {errors.method ? (
              <p className="field-error" id={`${id}-method-error`}>
                {errors.method}
              </p>
            ) : null}
          </div>
          <fieldset className="fieldset">
            <legend className="field-label">Headers</legend>
            <p className="field-hint">
              Sent to your receiver with each event (for example a token it checks). Values are hidden once
              typed.
            </p>
            {sub.headers.length === 0 ? <p className="muted">No headers.</p> : null}
            {sub.headers.map((h, i) => {
              const nameError = errors[`headers.${i}.name`];
              const valueError = errors[`headers.${i}.value`];
              return (
                <div key={i} className="header-row">
                  <div className="field">
                    <label className="field-label" htmlFor={`${id}-h${i}-name`}>
                      Header {i + 1} name
                    </label>
                    <input
                      id={`${id}-h${i}-name`}
                      className="input"
                      value={h.name}
                      onChange={(e) => setHeader(i, { name: e.target.value })}
                      aria-invalid={nameError ? true : undefined}
                      aria-describedby={nameError ? `${id}-h${i}-name-error` : undefined}
                      autoComplete="off"
                      spellCheck={false}
                    />
                    {nameError ? (
                      <p className="field-error" id={`${id}-h${i}-name-error`}>
                        {nameError}
                      </p>
                    ) : null}
                  </div>
                  <div className="field">
                    <label className="field-label" htmlFor={`${id}-h${i}-value`}>
                      Header {i + 1} value
                    </label>
                    <input
                      id={`${id}-h${i}-value`}
                      className="input"
                      type="password"
                      value={h.value}
                      placeholder={h.masked ? `Unchanged (${h.masked})` : ''}
                      onChange={(e) => setHeader(i, { value: e.target.value })}
                      aria-invalid={valueError ? true : undefined}
                      aria-describedby={valueError ? `${id}-h${i}-value-error` : undefined}
                      autoComplete="new-password"
                      spellCheck={false}
                    />
                    {valueError ? (
                      <p className="field-error" id={`${id}-h${i}-value-error`}>
                        {valueError}
                      </p>
                    ) : null}
                  </div>
                  <Button
                    size="sm"
                    variant="ghost"
                    className="header-remove"
                    onClick={() => patch({ headers: sub.headers.filter((_, j) => j !== i) })}
                  >
                    Remove header {i + 1}
                  </Button>
                </div>
              );
            })}
            <div>
              <Button
                size="sm"
                onClick={() => patch({ headers: [...sub.headers, { name: '', value: '', masked: null }] })}
              >
                Add header
              </Button>
            </div>
          </fieldset>
        </div>
        <div className="dialog-footer">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary">
            Done
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

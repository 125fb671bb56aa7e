import type { CampaignSettings, FieldError } from '../../../../shared/ipc/channels/campaigns.ts';

// The builder's form: a new campaign's starting settings, the date-time picker's value ↔ the
// wire's `DD/MM/YYYY, HH:MM`, and field-named problems looked up per input.

/** A fresh campaign: nothing chosen, the service's usual call settings. */
export function defaultSettings(): CampaignSettings {
  return {
    listId: null,
    agentId: null,
    versionId: null,
    mapping: {},
    name: '',
    countryCode: '+91',
    numberSource: { kind: 'numbers', fromNumbers: [] },
    start: '',
    end: '',
    timezone: 'Asia/Kolkata',
    call: {
      windowStart: '09:00',
      windowEnd: '19:00',
      retryCount: 2,
      retryBusyMinutes: 30,
      retryNotPickedMinutes: 60,
      retryFailedMinutes: 60,
      idleTimeoutWarningSeconds: 10,
      idleTimeoutEndSeconds: 20,
      maxCallLengthSeconds: 600,
    },
    concurrency: 50,
    callbackUrl: '',
    removeInvalid: true,
    transliterateNames: false,
  };
}

/** `2026-11-24T09:30` (datetime-local) → `24/11/2026, 09:30`; '' stays ''. */
export function pickerToCampaignTime(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  return m ? `${m[3]}/${m[2]}/${m[1]}, ${m[4]}:${m[5]}` : value;
}

/** `24/11/2026, 09:30` → `2026-11-24T09:30` for the picker; anything else → ''. */
export function campaignTimeToPicker(text: string): string {
  const m = /^(\d{2})\/(\d{2})\/(\d{4}), (\d{2}):(\d{2})$/.exec(text.trim());
  return m ? `${m[3]}-${m[2]}-${m[1]}T${m[4]}:${m[5]}` : '';
}

/** The first problem reported for `field` (or a field under it: `numberSource.fromNumbers`). */
export function errorFor(errors: readonly FieldError[], field: string): string | undefined {
  return errors.find((e) => e.field === field || e.field.startsWith(`${field}.`))?.message;
}

/** Settings fields the form shows, in screen order, with their labels (for the error summary). */
export const FIELD_LABELS: Record<string, string> = {
  listId: 'Contact list',
  agentId: 'Agent',
  name: 'Campaign name',
  countryCode: 'Country code',
  numberSource: 'Caller numbers',
  start: 'Campaign start',
  end: 'Campaign end',
  timezone: 'Timezone',
  'call.windowStart': 'Daily window from',
  'call.windowEnd': 'Daily window to',
  'call.retryCount': 'Retries',
  'call.retryBusyMinutes': 'Retry after busy',
  'call.retryNotPickedMinutes': 'Retry after not picked',
  'call.retryFailedMinutes': 'Retry after failed',
  'call.idleTimeoutWarningSeconds': 'Idle warning after',
  'call.idleTimeoutEndSeconds': 'Idle hang-up after',
  'call.maxCallLengthSeconds': 'Max call length',
  concurrency: 'Concurrency',
  callbackUrl: 'Callback URL',
  mapping: 'Variables',
  versionId: 'Version',
};

/** The label of the input a field error belongs to (the field itself when the form has none). */
export function labelFor(field: string): string {
  if (FIELD_LABELS[field]) return FIELD_LABELS[field];
  const parent = Object.keys(FIELD_LABELS).find((k) => field.startsWith(`${k}.`));
  return parent ? FIELD_LABELS[parent]! : field;
}

/** `"+91 98765 43210, 98765 43211"` → trimmed numbers; blank parts dropped. */
export function splitNumbers(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

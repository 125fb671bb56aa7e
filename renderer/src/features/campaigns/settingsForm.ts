import { campaignSettingsSchema } from '../../../../shared/ipc/channels/campaigns.ts';
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
    purpose: 'other',
    hoursAcknowledged: false,
    acceptShortfall: false,
  };
}

/** Settings whose change makes an acknowledged permitted-hours warning stale. */
const HOURS_INPUTS = ['countryCode', 'timezone', 'purpose', 'call', 'start'] as const;

/** A patch to the settings, with the hours acknowledgement dropped when what it was about changed. */
export function withStaleAcknowledgement(
  current: CampaignSettings,
  patch: Partial<CampaignSettings>,
): Partial<CampaignSettings> {
  if (!('hoursAcknowledged' in patch) && current.hoursAcknowledged)
    for (const k of HOURS_INPUTS)
      if (k in patch && JSON.stringify(patch[k]) !== JSON.stringify(current[k]))
        return { ...patch, hoursAcknowledged: false };
  return patch;
}

interface SchemaIssue {
  code: string;
  path: PropertyKey[];
  minimum?: number | bigint;
  maximum?: number | bigint;
  format?: string;
  message: string;
}

/** One refused value in plain words (never the validator's "Too small: expected number to be >=0"). */
function plainIssue(issue: SchemaIssue): string {
  const numberBound = (word: string, n: number | bigint | undefined) =>
    `must be a whole number ${word} ${String(n)}`;
  switch (issue.code) {
    case 'too_small':
      return typeof issue.minimum === 'number' || typeof issue.minimum === 'bigint'
        ? numberBound('of at least', issue.minimum)
        : 'is too short';
    case 'too_big':
      return typeof issue.maximum === 'number' || typeof issue.maximum === 'bigint'
        ? numberBound('of at most', issue.maximum)
        : 'is too long';
    case 'invalid_type':
      return 'must be a whole number';
    case 'invalid_format':
      return /window/i.test(String(issue.path.at(-1)))
        ? 'must be a time such as 09:30'
        : 'is not in the expected form';
    default:
      return 'is not a value the app can use';
  }
}

/**
 * Every value the settings' schema refuses, named by field in plain words, and the settings with
 * those values replaced by the defaults, so the back end can check everything else at the same time.
 */
export function schemaProblems(settings: CampaignSettings): {
  errors: FieldError[];
  checkable: CampaignSettings;
} {
  const parsed = campaignSettingsSchema.safeParse(settings);
  if (parsed.success) return { errors: [], checkable: parsed.data };
  const checkable = structuredClone(settings) as unknown as Record<string, unknown>;
  const defaults = defaultSettings() as unknown as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const issue of parsed.error.issues as SchemaIssue[]) {
    const path = issue.path.map(String);
    const field = path.join('.');
    errors.push({ field, message: `${labelFor(field)} ${plainIssue(issue)}` });
    // Put the default in place of the refused value.
    let target = checkable;
    let source = defaults;
    for (const key of path.slice(0, -1)) {
      target = (target[key] ?? {}) as Record<string, unknown>;
      source = (source[key] ?? {}) as Record<string, unknown>;
    }
    const last = path.at(-1);
    if (last !== undefined) target[last] = source[last];
  }
  return { errors, checkable: checkable as unknown as CampaignSettings };
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
  purpose: 'Purpose of the calls',
  hoursAcknowledged: 'Calling hours',
  acceptShortfall: 'Calls that do not fit',
  credits: 'Credits',
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

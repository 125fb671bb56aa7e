// Date formats of the calling service: campaign times `DD/MM/YYYY, HH:MM` (interpreted in the
// call_config time zone) and ISO 8601 with an offset (history filters). Pure: Intl does the zones.

export interface LocalDateTime {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; message: string };

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `18/10/2026, 09:00` → parts; checks the calendar (no 31/02). */
export function parseCampaignTime(text: string): ParseResult<LocalDateTime> {
  const m = /^(\d{2})\/(\d{2})\/(\d{4}), (\d{2}):(\d{2})$/.exec(text.trim());
  if (!m)
    return {
      ok: false,
      message: `"${text}" is not a date and time DD/MM/YYYY, HH:MM such as 18/10/2026, 09:00`,
    };
  const [day, month, year, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12) return { ok: false, message: `"${text}" has no month ${month}` };
  if (day < 1 || day > daysInMonth(year, month))
    return { ok: false, message: `"${text}" is not a calendar date` };
  if (hour > 23 || minute > 59) return { ok: false, message: `"${text}" is not a time of day` };
  return { ok: true, value: { year, month, day, hour, minute } };
}

export function formatCampaignTime(t: LocalDateTime): string {
  return `${pad(t.day)}/${pad(t.month)}/${pad(t.year, 4)}, ${pad(t.hour)}:${pad(t.minute)}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export interface ZonedParts extends LocalDateTime {
  second: number;
  /** 0 = Sunday … 6 = Saturday. */
  weekday: number;
}

const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The wall-clock time in `timeZone` at instant `ms`. */
export function instantToZoned(ms: number, timeZone: string): ZonedParts {
  const parts = formatterFor(timeZone).formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '0';
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    hour: Number(get('hour')) % 24,
    minute: Number(get('minute')),
    second: Number(get('second')),
    weekday: weekdays.indexOf(get('weekday')),
  };
}

/** Offset of `timeZone` from UTC at instant `ms`, in minutes (e.g. +330 for Asia/Kolkata). */
export function zoneOffsetMinutes(ms: number, timeZone: string): number {
  const z = instantToZoned(ms, timeZone);
  const asUtc = Date.UTC(z.year, z.month - 1, z.day, z.hour, z.minute, z.second);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

/**
 * The instant of a wall-clock time in `timeZone`. In a DST gap the time is moved forward by the gap;
 * in an overlap the earlier instant is chosen.
 */
export function zonedToInstant(t: LocalDateTime, timeZone: string): number {
  const naive = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute);
  const first = naive - zoneOffsetMinutes(naive, timeZone) * 60_000;
  const second = naive - zoneOffsetMinutes(first, timeZone) * 60_000;
  if (first === second) return first;
  return Math.min(first, second);
}

/** `DD/MM/YYYY, HH:MM` in `timeZone` → epoch ms. */
export function campaignTimeToInstant(text: string, timeZone: string): ParseResult<number> {
  const p = parseCampaignTime(text);
  if (!p.ok) return p;
  return { ok: true, value: zonedToInstant(p.value, timeZone) };
}

/** Epoch ms → `DD/MM/YYYY, HH:MM` in `timeZone`. */
export function instantToCampaignTime(ms: number, timeZone: string): string {
  return formatCampaignTime(instantToZoned(ms, timeZone));
}

const isoDateTime =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-](\d{2}):?(\d{2}))?$/;

/**
 * ISO 8601 date-time **with** a zone designator (`Z` or `±HH:MM`) → epoch ms; null when the text is
 * not one (no offset, not a calendar date, out-of-range fields).
 */
export function parseIsoWithOffset(text: string): number | null {
  return /(Z|[+-]\d{2}:?\d{2})$/.test(text.trim()) ? parseIsoDateTime(text) : null;
}

/**
 * ISO 8601 date-time, with or without a zone designator (UTC without one: `scheduled_at`, whose
 * sample has no offset) → epoch ms; null when it is not a real calendar date and time.
 */
export function parseIsoDateTime(text: string): number | null {
  const trimmed = text.trim();
  const m = isoDateTime.exec(trimmed);
  if (!m) return null;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const second = m[6] ? Number(m[6]) : 0;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  if (m[8] !== undefined && m[8] !== 'Z' && (Number(m[9]) > 23 || Number(m[10]) > 59)) return null;
  const ms = Date.parse(m[8] === undefined ? `${trimmed}Z` : trimmed);
  return Number.isNaN(ms) ? null : ms;
}

/** Date-time without offset, UTC (the individual call's `initiated_at` sample has no offset). */
export function isoWithoutOffset(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, '');
}

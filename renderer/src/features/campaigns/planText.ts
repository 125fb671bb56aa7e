// The plan's words: instants and days read in the campaign's timezone, named, never the machine's.

/** `Dec 1, 2030, 9:00 AM (Asia/Kolkata)` in the UI's locale. */
export function formatInZone(iso: string, timeZone: string, locale?: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  try {
    const text = new Intl.DateTimeFormat(locale, {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone,
    }).format(at);
    return `${text} (${timeZone})`;
  } catch {
    return iso;
  }
}

/** `2030-12-01` (a day in the campaign's zone) → `Sun, Dec 1` in the UI's locale. */
export function formatPlanDay(date: string, locale?: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return date;
  return new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
}

/** `20:00–09:00 next day` for a window spanning midnight. */
export const formatPlanWindow = (d: { windowStart: string; windowEnd: string; overnight: boolean }): string =>
  `${d.windowStart}–${d.windowEnd}${d.overnight ? ' next day' : ''}`;

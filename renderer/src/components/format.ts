/** Display formats shared by the features. Locale comes from the OS/browser. */

// Making an Intl formatter costs about as much as formatting a few hundred values with it (a
// million-row list's first render formatted a count per filter with a new one each: ~10 ms), so
// each locale and options pair is made once.
function madeOnce<Options, Format>(make: (locale?: string, options?: Options) => Format) {
  const made = new Map<string, Format>();
  return (locale?: string, options?: Options): Format => {
    const key = JSON.stringify([locale ?? null, options ?? null]);
    let format = made.get(key);
    if (!format) made.set(key, (format = make(locale, options)));
    return format;
  };
}

/** The Intl.NumberFormat for these arguments, made once. */
export const numberFormat = madeOnce(
  (locale?: string, options?: Intl.NumberFormatOptions) => new Intl.NumberFormat(locale, options),
);

/** The Intl.DateTimeFormat for these arguments, made once. */
export const dateTimeFormat = madeOnce(
  (locale?: string, options?: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, options),
);

/** 1234567 → "1,234,567" (in the user's locale). */
export const formatInteger = (n: number): string => numberFormat().format(n);

/** A count of rows, calls, contacts…: an integer in the user's locale. */
export const formatCount = formatInteger;

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(2)} GB`;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  if (seconds < 1) return 'less than a second';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return `${m} min ${s} s`;
}

export function formatCredits(credits: number, locale?: string): string {
  return numberFormat(locale, { maximumFractionDigits: 2 }).format(credits);
}

/** "just now", "5 min ago", "3 h ago", else a short date and time. */
export function formatWhen(iso: string, now: Date = new Date(), locale?: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const seconds = Math.round((now.getTime() - at.getTime()) / 1000);
  if (seconds >= 0 && seconds < 45) return 'just now';
  if (seconds >= 0 && seconds < 3600) return `${Math.max(1, Math.round(seconds / 60))} min ago`;
  if (seconds >= 0 && seconds < 6 * 3600) return `${Math.round(seconds / 3600)} h ago`;
  return dateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
}

export function formatTime(iso: string, locale?: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return dateTimeFormat(locale, { timeStyle: 'short' }).format(at);
}

export const formatCost = (cost: number | null | undefined): string =>
  cost === null || cost === undefined
    ? '—'
    : numberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(cost);

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return dateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }).format(at);
}

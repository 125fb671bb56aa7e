/** Display formats shared by the features. Locale comes from the OS/browser. */

export function formatCredits(credits: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(credits);
}

/** "just now", "5 min ago", "3 h ago", else a short date and time. */
export function formatWhen(iso: string, now: Date = new Date(), locale?: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const seconds = Math.round((now.getTime() - at.getTime()) / 1000);
  if (seconds >= 0 && seconds < 45) return 'just now';
  if (seconds >= 0 && seconds < 3600) return `${Math.max(1, Math.round(seconds / 60))} min ago`;
  if (seconds >= 0 && seconds < 6 * 3600) return `${Math.round(seconds / 3600)} h ago`;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
}

export function formatTime(iso: string, locale?: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { timeStyle: 'short' }).format(at);
}

// Display formats for the Calls page.
import { showBidiControls } from '../../../../shared/domain/visibleText.ts';
import { numberFormat } from '../../components/format.ts';

/**
 * The first of these service-supplied texts that is there, its bidi controls shown by name
 * ("+91⟨RLO⟩0123456789": the number cannot pass for another), or "—".
 */
export function shownText(...values: Array<string | null | undefined>): string {
  for (const v of values) if (v !== null && v !== undefined) return showBidiControls(v);
  return '—';
}

/** 75 → "1:15"; 3725 → "1:02:05". */
export function formatClock(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '0:00';
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

/** "no_answer" → "No answer"; "NO_ANSWER" → "No answer". */
export function humanize(code: string | null | undefined): string {
  if (!code) return '—';
  const words = code.replace(/[_-]+/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** 42 of 100 → "42%" (one decimal at most); no denominator → "—". */
export function formatRate(part: number, whole: number): string {
  if (!(whole > 0)) return '—';
  return numberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 }).format(part / whole);
}

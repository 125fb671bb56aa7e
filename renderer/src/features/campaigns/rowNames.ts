// The campaigns list names a campaign as the operator named it; where two share a name, each gets
// its start date (the OS locale's words, read in the campaign's timezone when known) so they can be
// told apart: "November (starts Dec 1, 2026)", "November (started Nov 20, 2026)".
import type { z } from 'zod';
import type { campaignRowSchema } from '../../../../shared/ipc/channels/campaigns.ts';

type Row = Pick<z.infer<typeof campaignRowSchema>, 'name' | 'startsAt' | 'timezone'>;

function dayOf(iso: string, timeZone: string | null, locale?: string): string | null {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  try {
    return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', ...(timeZone ? { timeZone } : {}) }).format(
      at,
    );
  } catch {
    return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(at);
  }
}

/** Each row's label, in the rows' order: its name, plus its start date where the name repeats. */
export function campaignRowNames(rows: readonly Row[], nowMs: number, locale?: string): string[] {
  const seen = new Map<string, number>();
  const key = (r: Row) => r.name.trim();
  for (const r of rows) seen.set(key(r), (seen.get(key(r)) ?? 0) + 1);
  return rows.map((r) => {
    const name = key(r);
    if ((seen.get(name) ?? 0) < 2 || !r.startsAt) return name;
    const day = dayOf(r.startsAt, r.timezone, locale);
    if (!day) return name;
    return `${name} (${Date.parse(r.startsAt) > nowMs ? 'starts' : 'started'} ${day})`;
  });
}

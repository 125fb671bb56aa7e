// The confirmation's words for what the summary holds as the service's values: start and end as
// the plan writes them (the OS locale, the zone named), caller numbers and pools by number and
// name, the agent's version as its picker names it. Ids only where nothing better is known.
import { campaignTimeToInstant } from '../../../../shared/domain/dates.ts';
import type { LaunchSummary } from '../../../../shared/ipc/channels/campaigns.ts';
import { formatInZone } from './planText.ts';

/** `DD/MM/YYYY, HH:MM` in the campaign's zone, written as the plan writes it (the OS locale, zone named). */
export function campaignTimeText(text: string, timeZone: string, locale?: string): string {
  const at = campaignTimeToInstant(text, timeZone);
  return at.ok ? formatInZone(new Date(at.value).toISOString(), timeZone, locale) : `${text} (${timeZone})`;
}

type Numbers = { numbers: Array<{ id: string; number: string; label: string | null }> };
type Pools = { poolDetails: Array<{ id: string; name: string; numbers: string[] }> };

/** Caller numbers as the builder lists them (number and name), a pool by its name; ids only when unknown. */
export function callersText(c: LaunchSummary['callers'], known: (Numbers & Pools) | null): string {
  if (c.kind === 'pool') {
    const pool = known?.poolDetails.find((p) => p.id === c.pool);
    return pool
      ? `Number pool ${pool.name} (${pool.numbers.length} ${pool.numbers.length === 1 ? 'number' : 'numbers'})`
      : `Number pool ${c.pool}`;
  }
  return c.numbers
    .map((id) => {
      const n = known?.numbers.find((x) => x.id === id || x.number === id);
      return n ? (n.label ? `${n.number} (${n.label})` : n.number) : id;
    })
    .join(', ');
}

/** The agent's version as the version picker names it ("v2 (active)"); null is the active version. */
export function versionText(
  version: string | null,
  versions: ReadonlyArray<{ id: string; label: string; isActive: boolean }> | null,
): string {
  if (version === null) return 'active version';
  const v = versions?.find((x) => x.id === version);
  return v ? `version ${v.label}${v.isActive ? ' (active)' : ''}` : `version ${version}`;
}

// A campaign as the operator named it, everywhere calls are shown: its name, with its start date
// where two campaigns share a name; the service's id only in details. Unnamed campaigns (history
// from elsewhere, never listed) say so with their first call's date rather than showing an id.
import { showBidiControls } from '../../../../shared/domain/visibleText.ts';
import type { CallCampaign } from '../../../../shared/ipc/channels/calls.ts';

const dayOf = (iso: string | null, locale?: string): string | null => {
  if (!iso) return null;
  const at = new Date(iso);
  return Number.isNaN(at.getTime())
    ? null
    : new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(at);
};

/** bulk_list_id → the words that name it. */
export function campaignLabels(
  campaigns: readonly Pick<
    CallCampaign,
    'bulkListId' | 'campaignName' | 'listName' | 'startedAt' | 'firstCallAt'
  >[],
  locale?: string,
): Map<string, string> {
  const base = (c: (typeof campaigns)[number]) =>
    showBidiControls(c.campaignName?.trim() || c.listName?.trim() || 'Unnamed campaign');
  const seen = new Map<string, number>();
  for (const c of campaigns) seen.set(base(c), (seen.get(base(c)) ?? 0) + 1);
  const labels = new Map<string, string>();
  for (const c of campaigns) {
    const name = base(c);
    const day = dayOf(c.startedAt ?? c.firstCallAt, locale);
    labels.set(c.bulkListId, (seen.get(name) ?? 0) > 1 && day ? `${name} (started ${day})` : name);
  }
  return labels;
}

/** The label of one campaign id, or "Unnamed campaign" when it is not known here. */
export const campaignLabel = (labels: ReadonlyMap<string, string>, bulkListId: string | null): string =>
  bulkListId === null ? '—' : (labels.get(bulkListId) ?? 'Unnamed campaign');

import { describe, expect, it } from 'vitest';
import { campaignLabel, campaignLabels } from './campaignNames.ts';

const c = (bulkListId: string, campaignName: string | null, startedAt: string | null, listName = 'c2k') => ({
  bulkListId,
  campaignName,
  listName,
  startedAt,
  firstCallAt: null,
});

describe('campaign labels', () => {
  it('names campaigns as the operator did, with the start date only where names repeat', () => {
    const labels = campaignLabels(
      [
        c('a', 'December reminders', '2026-12-01T09:00:00Z'),
        c('b', 'December reminders', '2026-12-08T09:00:00Z'),
        c('c', 'Follow-up', '2026-12-02T09:00:00Z'),
        c('d', null, null),
      ],
      'en-US',
    );
    expect([...labels.values()]).toEqual([
      'December reminders (started Dec 1, 2026)',
      'December reminders (started Dec 8, 2026)',
      'Follow-up',
      'c2k',
    ]);
    expect(campaignLabel(labels, 'zzz-unknown-uuid')).toBe('Unnamed campaign');
    expect(campaignLabel(labels, null)).toBe('—');
  });
});

import { describe, expect, it } from 'vitest';
import { callersText, campaignTimeText, versionText } from './confirmationText.ts';

describe('the confirmation’s words', () => {
  it('writes start and end as the plan does (locale words, zone named), not day-first service text', () => {
    expect(campaignTimeText('27/11/2026, 07:23', 'Asia/Kolkata', 'en-US')).toBe(
      'Nov 27, 2026, 7:23 AM (Asia/Kolkata)',
    );
    expect(campaignTimeText('not a time', 'Asia/Kolkata', 'en-US')).toBe('not a time (Asia/Kolkata)');
  });
  it('names caller numbers and pools as the builder lists them; an unknown id stays as it is', () => {
    const known = {
      numbers: [
        { id: 'n1', number: '+918000000001', label: 'Support' },
        { id: 'n2', number: '+918000000002', label: null },
      ],
      poolDetails: [{ id: 'p1', name: 'Mumbai pool', numbers: ['+918000000001', '+918000000002'] }],
    };
    expect(callersText({ kind: 'numbers', numbers: ['n1', 'n2', 'n9'] }, known)).toBe(
      '+918000000001 (Support), +918000000002, n9',
    );
    expect(callersText({ kind: 'pool', pool: 'p1' }, known)).toBe('Number pool Mumbai pool (2 numbers)');
    expect(callersText({ kind: 'pool', pool: 'p9' }, null)).toBe('Number pool p9');
  });
  it('names the version as the version picker does', () => {
    const versions = [
      { id: 'v-1', label: 'v1', isActive: false },
      { id: 'v-2', label: 'v2', isActive: true },
    ];
    expect(versionText('v-2', versions)).toBe('version v2 (active)');
    expect(versionText('v-1', versions)).toBe('version v1');
    expect(versionText(null, versions)).toBe('active version');
    expect(versionText('v-3', null)).toBe('version v-3');
  });
});

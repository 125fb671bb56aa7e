import { describe, expect, it } from 'vitest';
import type { AgentSyncState } from '../../../../shared/ipc/channels/agents.ts';
import { formatAge, syncLine } from './syncText.ts';

const base: AgentSyncState = {
  workspaceId: 'w1',
  running: false,
  syncedAt: '2026-11-23T10:00:00.000Z',
  ageSeconds: 300,
  lastError: null,
  lastErrorAt: null,
  progress: null,
};

describe('formatAge', () => {
  it('says the age in the largest whole unit', () => {
    expect(formatAge(12)).toBe('less than a minute');
    expect(formatAge(60)).toBe('1 minute');
    expect(formatAge(300)).toBe('5 minutes');
    expect(formatAge(7200)).toBe('2 hours');
    expect(formatAge(3 * 86_400 + 5)).toBe('3 days');
  });
});

describe('syncLine', () => {
  it('says when the library was synced, aged by the time since it was read', () => {
    const at = (iso: string) => `at ${iso.slice(11, 16)}`;
    expect(syncLine(base, 0, at)).toEqual({ tone: 'info', text: 'Last synced 5 minutes ago (at 10:00).' });
    expect(syncLine(base, 3600, at).text).toBe('Last synced 1 hour ago (at 10:00).');
  });

  it('keeps the cached agents and their age in view after a failed refresh', () => {
    const line = syncLine({ ...base, lastError: 'The service could not be reached' });
    expect(line.tone).toBe('warning');
    expect(line.text).toBe(
      'Refresh failed: The service could not be reached. Showing the agents synced 5 minutes ago (cached on this computer).',
    );
  });

  it('says never synced and shows progress while syncing', () => {
    const never = { ...base, syncedAt: null, ageSeconds: null };
    expect(syncLine(never).text).toBe('Never synced.');
    expect(syncLine({ ...never, lastError: 'Offline' }).text).toBe(
      'Refresh failed: Offline. No agents have been synced yet.',
    );
    expect(syncLine({ ...base, running: true, progress: { done: 2, total: 3 } }, 0, () => 'today').text).toBe(
      'Syncing agents (2 of 3 agents)… Last synced 5 minutes ago (today).',
    );
  });
});

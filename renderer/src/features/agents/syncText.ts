import { dateTimeFormat, formatInteger } from '../../components/format.ts';
import type { AgentSyncState } from '../../../../shared/ipc/channels/agents.ts';

/** 42 → "less than a minute", 300 → "5 minutes", 7200 → "2 hours", 3 days → "3 days". */
export function formatAge(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return 'less than a minute';
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (s < 3600) return plural(Math.floor(s / 60), 'minute');
  if (s < 86_400) return plural(Math.floor(s / 3600), 'hour');
  return plural(Math.floor(s / 86_400), 'day');
}

export interface SyncLine {
  tone: 'info' | 'warning';
  text: string;
}

/**
 * What the Agents section says about its local copy: when it was synced and how old it is, and
 * whether the last refresh failed (the cached agents stay shown either way).
 */
export function syncLine(
  sync: AgentSyncState | null,
  elapsedSeconds = 0,
  formatAt: (iso: string) => string = defaultFormatAt,
): SyncLine {
  if (!sync) return { tone: 'info', text: 'Reading the local agent library…' };
  const age = sync.ageSeconds === null ? null : formatAge(sync.ageSeconds + elapsedSeconds);
  const at = sync.syncedAt ? ` (${formatAt(sync.syncedAt)})` : '';
  const synced = age === null ? 'Never synced' : `Last synced ${age} ago${at}`;
  if (sync.running) {
    const progress =
      sync.progress && sync.progress.total !== null
        ? ` (${formatInteger(sync.progress.done)} of ${formatInteger(sync.progress.total)} agents)`
        : '';
    return { tone: 'info', text: `Syncing agents${progress}… ${synced}.` };
  }
  if (sync.lastError) {
    const cached =
      age === null
        ? 'No agents have been synced yet.'
        : `Showing the agents synced ${age} ago (cached on this computer).`;
    return { tone: 'warning', text: `Refresh failed: ${sentence(sync.lastError)} ${cached}` };
  }
  return { tone: 'info', text: `${synced}.` };
}

const defaultFormatAt = (iso: string): string => {
  const at = new Date(iso);
  return Number.isNaN(at.getTime())
    ? iso
    : dateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
};

const sentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

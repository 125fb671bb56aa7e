import type { DbClient } from '../db/client.ts';
import type { Logger } from '../logging/logger.ts';
import type { Redactor } from '../logging/redactor.ts';
import type { SecretStorage, SecretStore } from '../secrets/secretStore.ts';
import type { EventBus } from './events.ts';

/**
 * The two places a workspace's secrets can live; a workspace row records which one (its
 * `secret_storage`), never the secret.
 */
export interface SecretVault {
  /** The OS keychain (its status says whether it is available). */
  keychain: SecretStore;
  /** Memory, for this run only. */
  session: SecretStore;
  store(storage: SecretStorage): SecretStore;
}

export interface ResolvedDeskOptions {
  dataDir: string;
  host: 'electron' | 'browser';
  version: string;
  sandbox: 'auto' | 'off';
  /** Seconds-scale timings, shortened by tests. */
  timings: DeskTimings;
}

export interface DeskTimings {
  /** How often the active workspace's reachability is checked. */
  connectivityIntervalMs: number;
  /** Bound on one reachability check. */
  connectivityTimeoutMs: number;
  /** Bound on one "Test connection". */
  connectionTestTimeoutMs: number;
  /** How often a workspace synced before gets a background calls sync while online. */
  backgroundSyncIntervalMs: number;
  /** How often a running campaign's calls are polled (doubled up to livePollMaxMs while nothing changes). */
  livePollMs: number;
  livePollMaxMs: number;
}

/** What every domain gets: the database, the secrets, the log, the event bus, and a cleanup hook. */
export interface DeskContext {
  options: ResolvedDeskOptions;
  db: DbClient;
  secrets: SecretVault;
  logger: Logger;
  /** Tell it about any secret value met outside the secret stores (e.g. a draft's key). */
  redactor: Redactor;
  events: EventBus;
  onClose(cleanup: () => Promise<void> | void): void;
}

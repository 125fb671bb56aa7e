import { join } from 'node:path';
import { z } from 'zod';
import type { EventName, EventPayload } from '../../shared/ipc/contract.ts';
import type { Result } from '../../shared/ipc/result.ts';
import { openDbClient } from './db/client.ts';
import { DATABASE_FILE_NAME } from './db/openDatabase.ts';
import type { MigrationProgress } from './db/migrationProgress.ts';
import type { DeskContext, DeskTimings, SecretVault } from './desk/context.ts';
import { preparePrivateDataDir } from './dataDir.ts';
import { lockDataDir } from './dataDirLock.ts';
import { createDispatcher } from './desk/dispatcher.ts';
import type { DomainHandlers } from './desk/domain.ts';
import { contractListener, EventBus } from './desk/events.ts';
import { domains } from './domains.ts';
import { createFileLogger, redactingLogger, teeLogger } from './logging/logger.ts';
import type { Logger } from './logging/logger.ts';
import { Redactor } from './logging/redactor.ts';
import { KeychainSecretStore } from './secrets/keychainSecretStore.ts';
import { redactingSecretStore } from './secrets/redactingSecretStore.ts';
import type { SecretStore } from './secrets/secretStore.ts';
import { SessionSecretStore } from './secrets/sessionSecretStore.ts';

export interface DeskOptions {
  /** The installation's data folder: the SQLite file, logs/, sandbox/. Created if missing. */
  dataDir: string;
  host: 'electron' | 'browser';
  version: string;
  /** The OS keychain store; by default KeychainSecretStore (probed once). */
  secrets?: SecretStore;
  /** 'off' skips the built-in sandbox (tests, `--no-sandbox`). Default 'auto'. */
  sandbox?: 'auto' | 'off';
  /** Also receives every log line (redacted); the desk always writes `<dataDir>/logs/desk.log`. */
  logger?: Logger;
  timings?: Partial<DeskTimings>;
  /** Told while the database is upgraded before the back end can answer (startDesk.ts). */
  onUpgrade?: (progress: MigrationProgress) => void;
}

/** What the hosts (Electron main, the browser host, tests) hold. */
export interface Desk {
  /** One request of the contract from an untrusted caller: always resolves to a Result. */
  handle(channel: string, payload: unknown): Promise<Result<unknown>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /** Electron main keeps its window's bounds here (not a renderer channel). */
  windowState: {
    get(): Promise<WindowState | null>;
    set(state: WindowState): Promise<void>;
  };
  readonly dataDir: string;
  close(): Promise<void>;
}

export const windowStateSchema = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(200).max(20_000),
  height: z.number().int().min(200).max(20_000),
  maximized: z.boolean(),
});
export type WindowState = z.infer<typeof windowStateSchema>;

const defaultTimings: DeskTimings = {
  connectivityIntervalMs: 15_000,
  connectivityTimeoutMs: 3_000,
  connectionTestTimeoutMs: 10_000,
  backgroundSyncIntervalMs: 5 * 60_000,
  livePollMs: 5_000,
  livePollMaxMs: 60_000,
};

/**
 * The back end: plain Node (no 'electron'), the same in Electron's main process, the browser host
 * and tests. Opens the database worker, the secret stores and the log, creates every domain of
 * `domains.ts`, and answers the contract through one dispatcher. Rejects with a DeskFailure when the
 * data folder cannot be used (e.g. written by a newer app).
 */
export async function createDesk(options: DeskOptions): Promise<Desk> {
  preparePrivateDataDir(options.dataDir);
  const lock = lockDataDir(options.dataDir);
  const redactor = new Redactor();
  let fileLogger: ReturnType<typeof createFileLogger>;
  try {
    fileLogger = createFileLogger({ dir: join(options.dataDir, 'logs'), redactor });
  } catch (error) {
    lock.release();
    throw error;
  }
  const logger = options.logger
    ? teeLogger(fileLogger, redactingLogger(options.logger, redactor))
    : fileLogger;
  const closers: Array<() => Promise<void> | void> = [];
  const events = new EventBus(logger);

  const runClosers = async () => {
    for (const close of closers.splice(0).reverse()) {
      try {
        await close();
      } catch (error) {
        logger.error('closing failed', error);
      }
    }
  };

  try {
    const db = await openDbClient({
      file: join(options.dataDir, DATABASE_FILE_NAME),
      logger,
      ...(options.onUpgrade ? { onUpgrade: options.onUpgrade } : {}),
    });
    closers.push(() => db.close());

    const keychain = redactingSecretStore(options.secrets ?? (await KeychainSecretStore.open()), redactor);
    const session = redactingSecretStore(new SessionSecretStore(), redactor);
    const secrets: SecretVault = { keychain, session, store: (s) => (s === 'keychain' ? keychain : session) };
    const keychainStatus = keychain.status();
    logger.info('desk starting', {
      host: options.host,
      version: options.version,
      schema: db.schemaVersion,
      keychain: keychainStatus.available
        ? 'available'
        : `unavailable: ${keychainStatus.detail ?? keychainStatus.message ?? '?'}`,
    });

    const ctx: DeskContext = {
      options: {
        dataDir: options.dataDir,
        host: options.host,
        version: options.version,
        sandbox: options.sandbox ?? 'auto',
        timings: { ...defaultTimings, ...options.timings },
      },
      db,
      secrets,
      logger,
      redactor,
      events,
      onClose: (cleanup) => void closers.push(cleanup),
    };

    const handlers: DomainHandlers = {};
    for (const domain of domains) Object.assign(handlers, await domain.create(ctx));
    const handle = createDispatcher(handlers, logger);

    let closed: Promise<void> | null = null;
    return {
      handle,
      on: (event, listener) => events.on(event, contractListener(event, listener, logger)),
      windowState: {
        async get() {
          const parsed = windowStateSchema.safeParse(await db.call('settings.get', { key: 'windowState' }));
          return parsed.success ? parsed.data : null;
        },
        async set(state) {
          await db.call('settings.set', { key: 'windowState', value: windowStateSchema.parse(state) });
        },
      },
      dataDir: options.dataDir,
      close() {
        closed ??= (async () => {
          logger.info('desk closing');
          events.clear();
          await runClosers();
          fileLogger.close();
          lock.release();
        })();
        return closed;
      },
    };
  } catch (error) {
    logger.error('desk failed to start', error);
    await runClosers();
    fileLogger.close();
    lock.release();
    throw error;
  }
}

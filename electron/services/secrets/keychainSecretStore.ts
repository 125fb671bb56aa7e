import { randomBytes } from 'node:crypto';
import type { AsyncEntry as AsyncEntryType, EntryOptions } from '@napi-rs/keyring';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { SecretKind, SecretStore, SecretStoreStatus } from './secretStore.ts';

export const KEYCHAIN_SERVICE = 'campaign-desk';

/**
 * On Linux the keyring crate would otherwise fall back to the kernel keyring, which forgets
 * everything at logout: that is not the persistent OS keychain the operator was promised, so
 * we require the Secret Service and report plainly when it is missing.
 */
const entryOptions: EntryOptions = process.platform === 'linux' ? { linux: { store: 'secret-service' } } : {};

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);

export const unavailableMessage = (why: string) =>
  `No OS keychain is available (${why}). Secrets can be kept for this session only.`;

/** The keyring crate's errors, said plainly; anything unrecognised is passed on as it is. */
export function plainReason(raw: string): string {
  if (/DBUS_SESSION_BUS_ADDRESS|autolaunch|Failed to connect to socket|Unable to autolaunch/i.test(raw)) {
    return 'no D-Bus session here, so no Secret Service such as GNOME Keyring or KWallet can be reached';
  }
  if (/org\.freedesktop\.secrets|ServiceUnknown|not provided by any \.service files/i.test(raw)) {
    return 'no Secret Service such as GNOME Keyring or KWallet is running';
  }
  if (/locked|dismissed|prompt/i.test(raw)) return 'the keyring is locked and was not unlocked';
  if (/Cannot find module|could not load|\.node/i.test(raw))
    return 'the keychain module could not be loaded on this system';
  return raw;
}

const unavailable = (error: unknown): SecretStoreStatus => {
  const detail = reason(error);
  return { available: false, message: unavailableMessage(plainReason(detail)), detail };
};

/**
 * API keys and bearer tokens in the OS keychain (macOS Keychain, Windows Credential Manager,
 * Secret Service on Linux): service `campaign-desk`, account `<workspaceId>:<kind>`.
 * `open()` probes the keychain once (write, read back, delete a probe entry); when that fails the
 * store stays usable for reads of nothing and refuses writes with `keychain_unavailable`.
 */
export class KeychainSecretStore implements SecretStore {
  readonly storage = 'keychain' as const;
  readonly service: string;
  #status: SecretStoreStatus;
  #Entry: typeof AsyncEntryType | null;

  private constructor(service: string, status: SecretStoreStatus, Entry: typeof AsyncEntryType | null) {
    this.service = service;
    this.#status = status;
    this.#Entry = Entry;
  }

  static async open(options: { service?: string } = {}): Promise<KeychainSecretStore> {
    const service = options.service ?? KEYCHAIN_SERVICE;
    let Entry: typeof AsyncEntryType;
    try {
      // Loaded here so a platform without the native module still runs, with "no keychain".
      ({ AsyncEntry: Entry } = await import('@napi-rs/keyring'));
    } catch (error) {
      return new KeychainSecretStore(service, unavailable(error), null);
    }
    return new KeychainSecretStore(service, await probe(Entry, service), Entry);
  }

  status(): SecretStoreStatus {
    return { ...this.#status };
  }

  #entry(workspaceId: string, kind: SecretKind) {
    return new this.#Entry!(this.service, `${workspaceId}:${kind}`, entryOptions);
  }

  #requireAvailable() {
    if (!this.#status.available || !this.#Entry) {
      throw new DeskFailure(
        'keychain_unavailable',
        this.#status.message ?? unavailableMessage('unknown reason'),
      );
    }
  }

  async get(workspaceId: string, kind: SecretKind): Promise<string | null> {
    this.#requireAvailable();
    try {
      return await this.#entry(workspaceId, kind).getPassword();
    } catch (error) {
      throw new DeskFailure('keychain_unavailable', `The OS keychain could not be read (${reason(error)}).`);
    }
  }

  async set(workspaceId: string, kind: SecretKind, value: string): Promise<void> {
    this.#requireAvailable();
    try {
      await this.#entry(workspaceId, kind).setPassword(value);
    } catch (error) {
      throw new DeskFailure(
        'keychain_unavailable',
        `The OS keychain refused to store the secret (${reason(error)}).`,
      );
    }
  }

  async delete(workspaceId: string, kind: SecretKind): Promise<void> {
    this.#requireAvailable();
    try {
      await this.#entry(workspaceId, kind).deletePassword();
    } catch (error) {
      throw new DeskFailure(
        'keychain_unavailable',
        `The OS keychain could not delete the secret (${reason(error)}).`,
      );
    }
  }
}

async function probe(Entry: typeof AsyncEntryType, service: string): Promise<SecretStoreStatus> {
  const value = randomBytes(12).toString('hex');
  try {
    // The constructor itself throws when there is no platform store (e.g. no D-Bus session).
    const entry = new Entry(service, `probe:${randomBytes(6).toString('hex')}`, entryOptions);
    await entry.setPassword(value);
    const back = await entry.getPassword();
    await entry.deletePassword();
    if (back !== value) return unavailable(new Error('it did not return what was stored'));
    return { available: true };
  } catch (error) {
    return unavailable(error);
  }
}

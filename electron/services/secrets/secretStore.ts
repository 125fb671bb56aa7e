/** What a workspace can keep secret: the calling service's API key and the optional bearer token. */
export const secretKinds = ['apiKey', 'bearerToken'] as const;
export type SecretKind = (typeof secretKinds)[number];

/** Where a workspace's secrets live. */
export type SecretStorage = 'keychain' | 'session';

export interface SecretStoreStatus {
  /** True when this store can keep secrets. */
  available: boolean;
  /** Why not, in words for the operator. */
  message?: string;
  /** The platform's own error text, for the log (never shown as the message). */
  detail?: string;
}

/**
 * Secrets keyed by workspace id and kind. Values never go to SQLite, a log, a file or the renderer.
 * Implementations: KeychainSecretStore (the OS keychain), SessionSecretStore (memory, this run only).
 */
export interface SecretStore {
  readonly storage: SecretStorage;
  status(): SecretStoreStatus;
  get(workspaceId: string, kind: SecretKind): Promise<string | null>;
  /** Throws DeskFailure('keychain_unavailable') when the store cannot keep secrets. */
  set(workspaceId: string, kind: SecretKind, value: string): Promise<void>;
  delete(workspaceId: string, kind: SecretKind): Promise<void>;
}

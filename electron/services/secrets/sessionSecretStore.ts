import type { SecretKind, SecretStore } from './secretStore.ts';

/** Secrets kept in memory for this run only: the operator's explicit choice, never a silent fallback. */
export class SessionSecretStore implements SecretStore {
  readonly storage = 'session' as const;
  #values = new Map<string, string>();

  status() {
    return { available: true };
  }
  async get(workspaceId: string, kind: SecretKind): Promise<string | null> {
    return this.#values.get(`${workspaceId}:${kind}`) ?? null;
  }
  async set(workspaceId: string, kind: SecretKind, value: string): Promise<void> {
    this.#values.set(`${workspaceId}:${kind}`, value);
  }
  async delete(workspaceId: string, kind: SecretKind): Promise<void> {
    this.#values.delete(`${workspaceId}:${kind}`);
  }
}

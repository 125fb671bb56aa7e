import type { Redactor } from '../logging/redactor.ts';
import type { SecretKind, SecretStore } from './secretStore.ts';

/** Tells the log redactor about every secret value that passes through a store. */
export function redactingSecretStore(store: SecretStore, redactor: Redactor): SecretStore {
  return {
    storage: store.storage,
    status: () => store.status(),
    get: async (workspaceId: string, kind: SecretKind) => {
      const value = await store.get(workspaceId, kind);
      if (value !== null) redactor.add(value);
      return value;
    },
    set: async (workspaceId: string, kind: SecretKind, value: string) => {
      redactor.add(value);
      await store.set(workspaceId, kind, value);
    },
    delete: (workspaceId: string, kind: SecretKind) => store.delete(workspaceId, kind),
  };
}

import type { WorkspaceRecord } from './workspaces.queries.ts';
import type { SecretVault } from '../desk/context.ts';

/** A workspace's API key from wherever its secrets live (keychain or this session), or null. */
export const readWorkspaceApiKey = (secrets: SecretVault, record: WorkspaceRecord): Promise<string | null> =>
  secrets.store(record.secretStorage).get(record.id, 'apiKey');

/** Why there is no key, and what to do, for the operator. */
export const missingApiKeyMessage = (record: WorkspaceRecord): string =>
  record.secretStorage === 'session'
    ? 'No API key: it was kept for the last session only. Edit the workspace and enter the key again.'
    : 'No API key is stored for this workspace. Edit it and enter the key.';

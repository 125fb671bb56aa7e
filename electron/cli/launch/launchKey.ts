// The resume key of a CLI launch (workspace, file content, name, API key fingerprint) and of its
// attempts after a refusal: the same command resumes its launch and never starts a second one.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Which API key (so which account) a launch runs with: 16 hex digits of its sha256, never the key. */
export const apiKeyFingerprint = (apiKey: string): string => sha256(apiKey).slice(0, 16);

/**
 * The resume key of a launch: the workspace (`url:<base URL>` without trailing slashes, or the app
 * workspace's id), the file's content, the campaign name and the API key's fingerprint. The same
 * command with another account's key is another launch.
 */
export function launchKeyOf(a: {
  workspaceId: string;
  fileSha256: string;
  name: string;
  apiKey: string;
}): string {
  return sha256(JSON.stringify([a.workspaceId, a.fileSha256, a.name, apiKeyFingerprint(a.apiKey)]));
}

/**
 * The resume key builds before the API key's fingerprint was part of it used (workspace, file,
 * name). A launch recorded under it by an older build is still resumed, never started twice.
 */
export const legacyLaunchKeyOf = (a: { workspaceId: string; fileSha256: string; name: string }): string =>
  sha256(JSON.stringify([a.workspaceId, a.fileSha256, a.name]));

/** The key of the n-th attempt at a launch (n > 0 after the service refused the ones before). */
export const attemptKey = (key: string, n: number): string => (n === 0 ? key : sha256(`${key}#${n}`));

export async function fileHash(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export const fileHashOrNull = (path: string): Promise<string | null> => fileHash(path).catch(() => null);

// One-time downloads of exported files for the browser host: the back end writes the file to
// <dataDir>/exports/<token>/<file name> and answers `/downloads/<token>`; the host streams it once
// (electron/browser-host/downloads.ts) and deletes it. The 256-bit token is the only key.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const DOWNLOAD_PATH_PREFIX = '/downloads/';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** Downloads not fetched within this time are removed. */
export const DOWNLOAD_TTL_MS = 60 * 60 * 1000;

const exportsDir = (dataDir: string): string => join(dataDir, 'exports');

/** A new download folder; the file goes inside it under its own name. */
export function newDownload(dataDir: string): { token: string; dir: string; url: string } {
  const token = randomBytes(32).toString('base64url');
  const dir = join(exportsDir(dataDir), token);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return { token, dir, url: `${DOWNLOAD_PATH_PREFIX}${token}` };
}

/** The file behind a token (null when the token is malformed, unknown or already used). */
export function findDownload(
  dataDir: string,
  token: string,
): { file: string; name: string; size: number; dir: string } | null {
  if (!TOKEN.test(token)) return null;
  const dir = join(exportsDir(dataDir), token);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => !n.startsWith('.'));
  } catch {
    return null;
  }
  const name = names[0];
  if (names.length !== 1 || name === undefined) return null;
  const file = join(dir, name);
  return { file, name, size: statSync(file).size, dir };
}

export const removeDownload = (dir: string): void => rmSync(dir, { recursive: true, force: true });

/** Removes downloads older than the TTL (and everything, with maxAgeMs 0). */
export function sweepDownloads(dataDir: string, now = Date.now(), maxAgeMs = DOWNLOAD_TTL_MS): number {
  let removed = 0;
  let entries: string[];
  try {
    entries = readdirSync(exportsDir(dataDir));
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const dir = join(exportsDir(dataDir), entry);
    try {
      if (now - statSync(dir).mtimeMs >= maxAgeMs) {
        rmSync(dir, { recursive: true, force: true });
        removed++;
      }
    } catch {
      // Gone already.
    }
  }
  return removed;
}

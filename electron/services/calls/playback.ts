// Offline playback of saved recordings: calls:get hands the renderer a same-origin address with a
// random token (browser host `/recordings/<token>`, Electron `app://desk/recordings/<token>`); the
// host resolves the token to the file here (same process) and serves it with Range for seeking.
// Tokens live in memory for this run only and name one saved file; never a service URL or a key.
import { randomBytes } from 'node:crypto';

export const RECORDING_PATH_PREFIX = '/recordings/';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const MAX_TOKENS = 10_000;

const tokens = new Map<string, string>();
const byPath = new Map<string, string>();

/** The token of a saved file (the same one for the same file during this run). */
export function playbackToken(path: string): string {
  const known = byPath.get(path);
  if (known) return known;
  if (tokens.size >= MAX_TOKENS) {
    const oldest = tokens.keys().next().value as string;
    byPath.delete(tokens.get(oldest) as string);
    tokens.delete(oldest);
  }
  const token = randomBytes(32).toString('base64url');
  tokens.set(token, path);
  byPath.set(path, token);
  return token;
}

/** The file behind a token, or null (malformed or unknown). */
export function playbackFile(token: string): string | null {
  if (!TOKEN.test(token)) return null;
  return tokens.get(token) ?? null;
}

export const playbackUrl = (host: 'electron' | 'browser', path: string): string =>
  `${host === 'electron' ? 'app://desk' : ''}${RECORDING_PATH_PREFIX}${playbackToken(path)}`;

/** Content type by extension (the service's recordings are WAV). */
export const audioType = (file: string): string => {
  const ext = /\.([a-z0-9]+)$/i.exec(file)?.[1]?.toLowerCase();
  return ext === 'mp3'
    ? 'audio/mpeg'
    : ext === 'ogg'
      ? 'audio/ogg'
      : ext === 'm4a'
        ? 'audio/mp4'
        : ext === 'webm'
          ? 'audio/webm'
          : 'audio/wav';
};

/** One `bytes=a-b` / `bytes=a-` / `bytes=-n` range of a file of `size` bytes, or null (serve it whole). */
export function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(size - 1, Number(m[2]));
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

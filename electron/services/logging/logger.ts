import { closeSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, tightenFile } from '../privateFiles.ts';
import type { Redactor } from './redactor.ts';

export type LogFields = Record<string, string | number | boolean | null | undefined>;

/** The back end's logger: plain lines, no secrets (every line passes the redactor). */
export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  /** `error` may be anything thrown; its name, message and stack go to the log, never to the UI. */
  error(message: string, error?: unknown, fields?: LogFields): void;
}

export interface FileLogger extends Logger {
  readonly file: string;
  close(): void;
}

export const LOG_FILE_NAME = 'desk.log';

const formatValue = (value: string | number | boolean | null | undefined): string => {
  const text = String(value);
  return /^[\w.:/@+-]*$/.test(text) && text.length > 0 ? text : JSON.stringify(text);
};

export const formatFields = (fields?: LogFields): string =>
  fields
    ? Object.entries(fields)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => ` ${k}=${formatValue(v)}`)
        .join('')
    : '';

export const describeError = (error: unknown): string => {
  if (error instanceof Error) {
    const stack = error.stack ?? `${error.name}: ${error.message}`;
    const cause = error.cause === undefined ? '' : `\n  caused by: ${describeError(error.cause)}`;
    return `${stack}${cause}`;
  }
  return String(error);
};

/**
 * Appends lines to `<dir>/desk.log`. Rotation is deliberately simple: when the file passes
 * `maxBytes` it becomes desk.1.log (desk.1 → desk.2 …, the oldest beyond `keep` is deleted).
 * Writes are synchronous: the volume is small (lifecycle and failures) and a crash loses nothing.
 */
export function createFileLogger(options: {
  dir: string;
  redactor: Redactor;
  maxBytes?: number;
  keep?: number;
  /** Also print warnings and errors to stderr (the CLI hosts do; tests do not). */
  echo?: boolean;
}): FileLogger {
  const maxBytes = options.maxBytes ?? 2_000_000;
  const keep = options.keep ?? 3;
  ensurePrivateDir(options.dir);
  const file = join(options.dir, LOG_FILE_NAME);
  const rotated = (n: number) => join(options.dir, `desk.${n}.log`);

  let fd: number | null = openSync(file, 'a', 0o600);
  tightenFile(file); // the mode given to open only applies to a new file
  let size = statSync(file).size;

  const rotate = () => {
    if (fd !== null) closeSync(fd);
    rmSync(rotated(keep), { force: true });
    for (let n = keep - 1; n >= 1; n--) {
      try {
        renameSync(rotated(n), rotated(n + 1));
      } catch {
        // that generation does not exist yet
      }
    }
    renameSync(file, rotated(1));
    fd = openSync(file, 'a', 0o600);
    size = 0;
  };

  const write = (level: string, message: string, fields?: LogFields, extra?: string) => {
    if (fd === null) return;
    const body = `${message}${formatFields(fields)}${extra ? `\n${extra}` : ''}`;
    const line = `${new Date().toISOString()} ${level} ${options.redactor.redact(body)}\n`;
    if (options.echo && level !== 'INFO') process.stderr.write(line);
    const bytes = Buffer.from(line, 'utf8');
    if (size > 0 && size + bytes.length > maxBytes) rotate();
    writeSync(fd, bytes);
    size += bytes.length;
  };

  return {
    file,
    info: (message, fields) => write('INFO', message, fields),
    warn: (message, fields) => write('WARN', message, fields),
    error: (message, error, fields) =>
      write('ERROR', message, fields, error === undefined ? undefined : describeError(error)),
    close: () => {
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}

/** A logger that drops everything; for unit tests that do not look at logs. */
export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/** Wraps a logger supplied from outside so it, too, only ever sees redacted text. */
export function redactingLogger(inner: Logger, redactor: Redactor): Logger {
  const fields = (f?: LogFields): LogFields | undefined =>
    f &&
    Object.fromEntries(
      Object.entries(f).map(([k, v]) => [k, typeof v === 'string' ? redactor.redact(v) : v]),
    );
  return {
    info: (message, f) => inner.info(redactor.redact(message), fields(f)),
    warn: (message, f) => inner.warn(redactor.redact(message), fields(f)),
    error: (message, error, f) => {
      const copy = error === undefined ? undefined : new Error(redactor.redact(describeError(error)));
      if (copy) copy.stack = copy.message;
      inner.error(redactor.redact(message), copy, fields(f));
    },
  };
}

/** Sends every line to each logger in turn. */
export const teeLogger = (...loggers: Logger[]): Logger => ({
  info: (m, f) => loggers.forEach((l) => l.info(m, f)),
  warn: (m, f) => loggers.forEach((l) => l.warn(m, f)),
  error: (m, e, f) => loggers.forEach((l) => l.error(m, e, f)),
});

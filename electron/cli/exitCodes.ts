import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';

export const EXIT = {
  ok: 0,
  /** The input cannot be processed (missing, empty, binary, no phone column, no data rows). */
  failed: 1,
  /** Bad command line, or a subcommand that is not available. */
  usage: 2,
  /**
   * `launch`: the service could not tell whether the campaign started; the operator must check it
   * and decide (a re-run never sends the start again on its own).
   */
  undecided: 3,
  /** A bug: the message says so; DESK_DEBUG=1 prints the stack. */
  internal: 70,
  /** The calling service cannot be reached; running the same command again resumes (EX_TEMPFAIL). */
  unavailable: 75,
  interrupted: 130,
} as const;

/** A command-line mistake: one line on stderr, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * node:util parseArgs, its errors (unknown option, missing value, stray argument) as a UsageError
 * with parseArgs's first line, e.g. "Unknown option '--foo'".
 */
export function parseCommandLine<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    throw new UsageError(
      error instanceof Error ? (error.message.split('\n')[0] ?? 'bad arguments') : 'bad arguments',
    );
  }
}

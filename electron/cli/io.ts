// The terminal, as the commands see it (tests pass their own).
import { createInterface } from 'node:readline/promises';
import { terminalOutput } from '../../shared/domain/visibleText.ts';

export interface Io {
  out(text: string): void;
  err(line: string): void;
  /** A one-line status that is redrawn in place (interactive terminals only); null clears it. */
  status(line: string | null): void;
  readonly interactive: boolean;
  /**
   * Asks a question on the terminal and answers the line typed; null when stdin is not a
   * terminal (a script: nobody to ask).
   */
  ask(question: string): Promise<string | null>;
  onInterrupt(listener: () => void): void;
  offInterrupt(listener: () => void): void;
}

/**
 * The process's terminal. Commands print service text through terminalText (its controls made
 * visible); this last guard does the same to everything else written, line breaks and tabs aside,
 * so no ESC or other control byte ever reaches the terminal from a path that forgot.
 */
export function processIo(): Io {
  let width = 0;
  return {
    out: (text) => void process.stdout.write(`${terminalOutput(text)}\n`),
    err: (line) => void process.stderr.write(`${terminalOutput(line)}\n`),
    status(line) {
      const text = terminalOutput(line ?? '');
      process.stderr.write(`\r${text.padEnd(width)}${line === null ? '\r' : ''}`);
      width = line === null ? 0 : text.length;
    },
    interactive: Boolean(process.stderr.isTTY),
    async ask(question) {
      if (!process.stdin.isTTY) return null;
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      try {
        // A terminal closed without an answer (Ctrl-D) answers '' (no).
        return await new Promise<string>((resolve) => {
          rl.once('close', () => resolve(''));
          rl.question(question).then(resolve, () => resolve(''));
        });
      } finally {
        rl.close();
      }
    },
    onInterrupt: (listener) => {
      process.on('SIGINT', listener);
      process.on('SIGTERM', listener);
    },
    offInterrupt: (listener) => {
      process.off('SIGINT', listener);
      process.off('SIGTERM', listener);
    },
  };
}

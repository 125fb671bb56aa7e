import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { nodeBinary, repoRoot } from './paths.ts';

export interface ChildServer {
  /** The first match of the ready pattern. */
  match: RegExpMatchArray;
  /** Everything the process wrote so far (stdout + stderr), for failure messages. */
  output: () => string;
  /** SIGTERM, then SIGKILL after a grace period. Safe to call twice. */
  stop: () => Promise<void>;
  child: ChildProcess;
}

export interface StartOptions {
  name: string;
  script: string;
  args: string[];
  /** The line that says the server is ready; its groups are returned. */
  ready: RegExp;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** Starts one of our Node servers as a child process and waits for its ready line on stdout. */
export async function startChildServer(options: StartOptions): Promise<ChildServer> {
  const child = spawn(nodeBinary(), [options.script, ...options.args], {
    cwd: repoRoot,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdoutLine = '';
  let exited: Promise<void> | null = null;
  const exitPromise = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        new Error(
          `${options.name} did not print its ready line within ${options.timeoutMs ?? 20_000} ms. Output:\n${output}`,
        ),
      );
    }, options.timeoutMs ?? 20_000);
    child.stdout!.setEncoding('utf8');
    child.stderr!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      output += chunk;
      stdoutLine += chunk;
      const found = stdoutLine.match(options.ready);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.stderr!.on('data', (chunk: string) => {
      output += chunk;
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${options.name} could not start: ${error.message}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(
          `${options.name} exited before it was ready (code ${code}, signal ${signal}). Output:\n${output}`,
        ),
      );
    });
  });

  const stop = () => {
    exited ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exitPromise;
      clearTimeout(killer);
    })();
    return exited;
  };
  return { match, output: () => output, stop, child };
}

// Runs a Node script as a child process and measures it from outside: wall time (spawn to exit,
// Node start-up included) and peak resident memory of the whole child (all its threads).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ChildMeasure {
  wallMs: number;
  code: number | null;
  stdout: string;
  stderr: string;
  /** Peak RSS in KiB, or null when the child did not report it (it crashed before exit). */
  peakRssKb: number | null;
  /** User + system CPU time of the child (all threads) in ms, or null like peakRssKb. */
  cpuMs: number | null;
}

const hook = new URL('./peakRssHook.ts', import.meta.url).href;

export async function measureNodeScript(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<ChildMeasure> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-rss-'));
  const rssFile = join(dir, 'rss.json');
  try {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', hook, script, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env, BENCH_PEAK_RSS_FILE: rssFile },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (c) => resolve(c));
    });
    const wallMs = performance.now() - started;
    let peakRssKb: number | null = null;
    let cpuMs: number | null = null;
    try {
      const usage = JSON.parse(readFileSync(rssFile, 'utf8')) as { maxRssKb: number; cpuMs?: number };
      peakRssKb = usage.maxRssKb;
      cpuMs = usage.cpuMs ?? null;
    } catch {
      peakRssKb = null;
    }
    return { wallMs, code, stdout, stderr, peakRssKb, cpuMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

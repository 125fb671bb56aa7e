// Runs the sandbox as its own process (`sandbox/main.ts`, exactly what `npm run sandbox` runs), so the
// client is tested over real HTTP against the real peer without importing sandbox/ code.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../../../../sandbox/main.ts', import.meta.url));

export interface SandboxProcess {
  baseUrl: string;
  controlUrl: string;
  apiKey: string;
  /** The sandbox's process id (benchmarks read its CPU time). */
  pid: number | undefined;
  /** POST/DELETE/GET on the control API. */
  control<T = unknown>(method: string, path: string, json?: unknown): Promise<T>;
  stop(): Promise<void>;
}

export async function startSandboxProcess(opts: {
  apiKey: string;
  bearer?: string;
  seed?: number;
  /** `rtt=80ms,jitter=20ms,bw=2MB/s` (the sandbox's --network). */
  network?: string;
  /** Keep the sandbox's state on disk here (a million seeded calls stay out of memory). */
  dataDir?: string;
}): Promise<SandboxProcess> {
  const args = [
    entry,
    '--port',
    '0',
    '--api-key',
    opts.apiKey,
    '--seed',
    String(opts.seed ?? 1),
    '--speed',
    '0',
  ];
  if (opts.bearer) args.push('--bearer', opts.bearer);
  if (opts.network) args.push('--network', opts.network);
  if (opts.dataDir) args.push('--data', opts.dataDir);
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sandbox did not start: ${err}`)), 60_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /sandbox listening on (\S+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${code}: ${err}`));
    });
  });
  const controlUrl = baseUrl.replace(/\/v0$/, '/_sandbox');
  return {
    baseUrl,
    controlUrl,
    apiKey: opts.apiKey,
    pid: child.pid,
    async control<T>(method: string, path: string, json?: unknown): Promise<T> {
      const res = await fetch(`${controlUrl}${path}`, {
        method,
        headers: {
          'x-api-key': opts.apiKey,
          ...(json === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      });
      const body = (await res.json()) as T;
      if (!res.ok) throw new Error(`control ${method} ${path}: ${res.status} ${JSON.stringify(body)}`);
      return body;
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

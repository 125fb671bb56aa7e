// `campaign-desk sync` against a fake service on 127.0.0.1 that redirects the history to another
// port: one plain line naming that host, exit 1, and the other port never receives the key.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('./main.ts', import.meta.url));
const key = 'sk-redirect-cli-31337';
const keysSeen: string[] = [];
const other = http.createServer((req, res) => {
  const k = req.headers['x-api-key'];
  if (typeof k === 'string') keysSeen.push(k);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ calls: [], limit: 100, offset: 0, count: 0, total: 0 }));
});
const service = http.createServer((req, res) => {
  const port = (other.address() as AddressInfo).port;
  res.writeHead(307, { location: `http://127.0.0.1:${port}${req.url ?? '/'}` });
  res.end();
});
let dir = '';

beforeAll(async () => {
  for (const s of [other, service]) await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  dir = mkdtempSync(join(tmpdir(), 'desk-cli-redirect-'));
});
afterAll(async () => {
  for (const s of [other, service]) await new Promise<void>((r) => s.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

it('sync refuses a history redirect to another port in one line naming it; the key stays home', async () => {
  const base = `http://127.0.0.1:${(service.address() as AddressInfo).port}/v0`;
  const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      [cli, 'sync', '--data', join(dir, 'data'), '--base-url', base, '--no-recordings'],
      { env: { ...process.env, CAMPAIGN_DESK_API_KEY: key }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  const otherHost = `127.0.0.1:${(other.address() as AddressInfo).port}`;
  expect(r.code).toBe(1);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toContain(`redirected listCallHistory to another host (${otherHost})`);
  expect(r.stderr).not.toContain(key);
  expect(keysSeen).toEqual([]);
}, 60_000);

import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { tempDirs } from '../services/db/testing.ts';
import { defaultDataDir } from '../services/dataDir.ts';
import { parseArgs } from './main.ts';

const dirs = tempDirs('desk-cli-');
afterEach(() => dirs.cleanup());
const mainFile = fileURLToPath(new URL('./main.ts', import.meta.url));

function staticDir() {
  const dir = join(dirs.make(), 'renderer');
  mkdirSync(dir);
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Campaign Desk</title>');
  return dir;
}

/** Runs the CLI; resolves once it printed its first stdout line or exited. */
function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [mainFile, ...args], {
    env: { ...process.env, CI: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const firstLine = new Promise<void>((resolve) => {
    child.stdout.on('data', () => stdout.includes('\n') && resolve());
    void exited.then(() => resolve());
  });
  return { child, exited, firstLine, out: () => ({ stdout, stderr }) };
}

describe('browser host CLI', () => {
  it('prints exactly one ready line, serves a working socket, and stops cleanly on SIGTERM', async () => {
    const proc = run([
      '--port',
      '0',
      '--data',
      dirs.make(),
      '--no-open',
      '--no-sandbox',
      '--static',
      staticDir(),
    ]);
    await proc.firstLine;
    const { stdout } = proc.out();
    const match =
      /^Campaign Desk is running in your browser at (http:\/\/127\.0\.0\.1:(\d+))\/#token=([\w-]{43})\n$/.exec(
        stdout,
      );
    expect(match, stdout).not.toBeNull();
    const [, origin, port, token] = match!;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/desk?token=${token}`, { origin });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'app:info', request: {} }));
    const reply = await new Promise<string>((resolve) => ws.once('message', (d) => resolve(d.toString())));
    expect(JSON.parse(reply)).toMatchObject({
      type: 'result',
      id: 1,
      result: { ok: true, value: { host: 'browser' } },
    });
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    expect(proc.out().stdout.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('says in one line when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const proc = run([
        '--port',
        String(port),
        '--data',
        dirs.make(),
        '--no-sandbox',
        '--static',
        staticDir(),
      ]);
      expect(await proc.exited).toBe(1);
      expect(proc.out().stderr).toMatch(/^campaign-desk web: That port is already in use: .*\n$/);
      expect(proc.out().stdout).toBe('');
    } finally {
      blocker.close();
    }
  });

  it('rejects unknown arguments with exit 2 and the usage', async () => {
    const proc = run(['--frobnicate']);
    expect(await proc.exited).toBe(2);
    expect(proc.out().stderr).toMatch(/^campaign-desk web: unknown argument: --frobnicate\nUsage:/);
  });

  it('says when the UI is not built', async () => {
    const proc = run(['--data', dirs.make(), '--static', join(dirs.make(), 'nothing')]);
    expect(await proc.exited).toBe(1);
    expect(proc.out().stderr).toMatch(/index\.html is missing/);
  });
});

describe('parseArgs', () => {
  it('reads every option, in both --flag value and --flag=value forms', () => {
    expect(parseArgs(['--port', '8080', '--data=/d', '--no-open', '--no-sandbox'], {})).toEqual({
      port: 8080,
      dataDir: '/d',
      open: false,
      sandbox: false,
      staticDir: null,
    });
    expect(parseArgs(['--port', 'x'], {})).toEqual({
      error: '--port needs a number from 0 to 65535 (got x)',
    });
    expect(parseArgs(['--port', '70000'], {})).toMatchObject({ error: expect.any(String) });
    expect(parseArgs(['--help'], {})).toBe('help');
  });

  it('defaults the data folder to $XDG_DATA_HOME/campaign-desk, else ~/.local/share/campaign-desk', () => {
    expect(defaultDataDir({ XDG_DATA_HOME: '/x/data' }, 'linux')).toBe('/x/data/campaign-desk');
    expect(defaultDataDir({}, 'linux')).toMatch(/\.local\/share\/campaign-desk$/);
    expect(defaultDataDir({ DESK_DATA_DIR: '/elsewhere', XDG_DATA_HOME: '/x' }, 'linux')).toBe('/elsewhere');
    expect(defaultDataDir({}, 'darwin')).toMatch(/Library\/Application Support\/Campaign Desk$/);
  });
});

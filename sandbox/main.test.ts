import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('./main.ts', import.meta.url));

function run(args: string[]) {
  const child = spawn(process.execPath, [entry, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return { child, out: () => stdout, err: () => stderr };
}

async function waitFor(check: () => boolean, ms = 10_000) {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('npm run sandbox (sandbox/main.ts)', () => {
  it('prints exactly one ready line, serves, and exits cleanly on SIGTERM', async () => {
    const p = run(['--port', '0', '--api-key', 'cli-key-123', '--seed', '5']);
    await waitFor(() => p.out().includes('\n'));
    const lines = p.out().split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const m = /^sandbox listening on (http:\/\/127\.0\.0\.1:\d+\/v0)$/.exec(lines[0] ?? '');
    expect(m).not.toBeNull();
    const res = await fetch(`${m?.[1]}/workspace`, { headers: { 'x-api-key': 'cli-key-123' } });
    expect(res.status).toBe(200);
    p.child.kill('SIGTERM');
    const [code] = await once(p.child, 'exit');
    expect(code).toBe(0);
    expect(p.out().split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('exits on SIGINT too', async () => {
    const p = run(['--port', '0', '--api-key', 'cli-key-123']);
    await waitFor(() => p.out().includes('listening'));
    p.child.kill('SIGINT');
    const [code] = await once(p.child, 'exit');
    expect(code).toBe(0);
  });

  it('refuses bad arguments with a usage message', async () => {
    for (const args of [
      [],
      ['--api-key', 'k', '--port', 'abc'],
      ['--api-key', 'k', '--bogus'],
      ['--api-key', 'k', '--network', 'rtt=fast'],
    ]) {
      const p = run(args);
      const [code] = await once(p.child, 'exit');
      expect(code).toBe(2);
      expect(p.err()).toContain('usage: npm run sandbox');
      expect(p.out()).toBe('');
    }
  });
});

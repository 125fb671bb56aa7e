import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileLogger, redactingLogger } from './logger.ts';
import type { Logger } from './logger.ts';
import { Redactor } from './redactor.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'desk-log-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('file logger', () => {
  it('writes plain lines with fields and error details', () => {
    const dir = tempDir();
    const log = createFileLogger({ dir, redactor: new Redactor() });
    log.info('desk started', { host: 'browser', port: 1234 });
    log.error('query failed', new TypeError('boom'), { method: 'workspaces.list' });
    log.close();
    const text = readFileSync(join(dir, 'desk.log'), 'utf8');
    expect(text).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z INFO desk started host=browser port=1234$/m);
    expect(text).toMatch(/ERROR query failed method=workspaces.list\nTypeError: boom/);
  });

  it('removes every known secret before writing, including inside errors and fields', () => {
    const dir = tempDir();
    const redactor = new Redactor();
    const log = createFileLogger({ dir, redactor });
    const secret = 'sk-live-9f8e7d6c5b4a';
    redactor.add(secret);
    log.warn(`key was ${secret}`, { header: `X-API-KEY: ${secret}` });
    log.error('failed', new Error(`request with ${secret} refused`));
    log.close();
    const text = readFileSync(join(dir, 'desk.log'), 'utf8');
    expect(text).not.toContain(secret);
    expect(text.match(/\[redacted\]/g)).toHaveLength(3);
  });

  it('rotates when the file grows past the limit and keeps a bounded number of generations', () => {
    const dir = tempDir();
    const log = createFileLogger({ dir, redactor: new Redactor(), maxBytes: 1000, keep: 2 });
    for (let i = 0; i < 100; i++) log.info(`line ${i} ${'x'.repeat(60)}`);
    log.close();
    expect(readdirSync(dir).sort()).toEqual(['desk.1.log', 'desk.2.log', 'desk.log']);
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f)).length).toBeLessThanOrEqual(1000);
    expect(readFileSync(join(dir, 'desk.log'), 'utf8')).toContain('line 99 ');
  });
});

describe('redacting logger', () => {
  it('redacts message, string fields and errors before an outside logger sees them', () => {
    const seen: string[] = [];
    const inner: Logger = {
      info: (m, f) => seen.push(m, JSON.stringify(f)),
      warn: (m) => seen.push(m),
      error: (m, e) => seen.push(m, String(e)),
    };
    const redactor = new Redactor();
    redactor.add('topsecret');
    const log = redactingLogger(inner, redactor);
    log.info('a topsecret b', { k: 'topsecret' });
    log.error('c', new Error('has topsecret'));
    expect(seen.join('\n')).not.toContain('topsecret');
    expect(seen.join('\n')).toContain('[redacted]');
  });
});

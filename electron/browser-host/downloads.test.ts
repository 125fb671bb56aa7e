import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDirs } from '../services/db/testing.ts';
import { newDownload, sweepDownloads } from '../services/files/downloads.ts';
import { isDownloadRequest, serveDownload } from './downloads.ts';

const dirs = tempDirs('desk-downloads-');
let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
  dirs.cleanup();
});

/** Status of a request whose body is read to the end (so the connection is free again). */
const statusOf = async (url: string, init?: RequestInit): Promise<number> => {
  const response = await fetch(url, init);
  await response.arrayBuffer();
  return response.status;
};

async function serve(dataDir: string): Promise<string> {
  server = createServer((req, res) => {
    if (isDownloadRequest(req)) return serveDownload(dataDir, req, res);
    res.writeHead(418).end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe('export downloads (real HTTP)', () => {
  it('streams an exported file once as an attachment, then forgets it', async () => {
    const dataDir = dirs.make();
    const origin = await serve(dataDir);
    const download = newDownload(dataDir);
    const body = 'Mobile Number,Name\n+919876543210,Jos\u00e9\n';
    writeFileSync(join(download.dir, 'Liste été-upload.csv'), body);
    const first = await fetch(origin + download.url);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(first.headers.get('content-disposition')).toBe(
      `attachment; filename="Liste _t_-upload.csv"; filename*=UTF-8''Liste%20%C3%A9t%C3%A9-upload.csv`,
    );
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await first.text()).toBe(body);
    // The server removes the file when its response closes, which can come after the body arrived.
    await vi.waitFor(() => expect(existsSync(download.dir)).toBe(false), { timeout: 10_000 });
    expect(await statusOf(origin + download.url)).toBe(404);
  });

  it('answers 404 for unknown or malformed tokens and 405 for other methods', async () => {
    const dataDir = dirs.make();
    const origin = await serve(dataDir);
    expect(await statusOf(`${origin}/downloads/${'a'.repeat(43)}`)).toBe(404);
    expect(await statusOf(`${origin}/downloads/..%2F..%2Fcampaign-desk.sqlite`)).toBe(404);
    const download = newDownload(dataDir);
    writeFileSync(join(download.dir, 'x.csv'), 'x');
    expect(await statusOf(origin + download.url, { method: 'POST' })).toBe(405);
    expect(await statusOf(origin + download.url)).toBe(200);
  });

  it('sweeps downloads nobody fetched', () => {
    const dataDir = dirs.make();
    const old = newDownload(dataDir);
    expect(sweepDownloads(dataDir, Date.now())).toBe(0);
    expect(sweepDownloads(dataDir, Date.now() + 2 * 60 * 60 * 1000)).toBe(1);
    expect(existsSync(old.dir)).toBe(false);
  });
});

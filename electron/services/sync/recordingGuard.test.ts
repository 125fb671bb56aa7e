// Recording downloads against fake servers on 127.0.0.1: the size cap (declared and streamed), the
// content type, the address check (the service's own origin allowed even on loopback, anything
// else local refused, redirects checked hop by hop), partial files never left behind.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { insertWorkspace } from '../db/testing.ts';
import type { CallColumns } from './callRow.ts';
import { checkRecordingUrl, isPublicAddress } from './recordingGuard.ts';
import { partialDownloads, recordingsDir, saveRecordings } from './recordings.ts';
import type { RecordingsOptions } from './recordings.ts';
import { openTempDb } from './testing.ts';
import type { TempDb } from './testing.ts';

const WAV = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4_000, 7)]);
const CHUNK = Buffer.alloc(64 * 1024, 1);

/** Counts requests per path; the routes below are the service's recording host. */
function fakeServer(route: (url: string, res: http.ServerResponse, self: string) => void) {
  const hits: string[] = [];
  const credentials: string[] = [];
  let self = '';
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    for (const h of ['x-api-key', 'authorization', 'cookie']) if (req.headers[h]) credentials.push(h);
    route(req.url ?? '', res, self);
  });
  return {
    hits,
    credentials,
    get origin() {
      return self;
    },
    async start() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      self = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Streams 64 KiB chunks until `total` bytes or the client goes away. */
function drip(res: http.ServerResponse, total: number) {
  let sent = 0;
  const more = () => {
    while (sent < total && !res.destroyed) {
      sent += CHUNK.length;
      if (!res.write(CHUNK)) return void res.once('drain', more);
    }
    if (!res.destroyed) res.end();
  };
  res.on('error', () => undefined);
  more();
}

const other = fakeServer((url, res) => {
  res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': String(WAV.length) });
  res.end(WAV);
});

const service = fakeServer((url, res, self) => {
  if (url === '/ok.wav') {
    res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': String(WAV.length) });
    return void res.end(WAV);
  }
  if (url === '/huge.wav') {
    // Declares 5 GB and starts sending: refused from the header, nothing written.
    res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': '5000000000' });
    return drip(res, 5_000_000_000);
  }
  if (url === '/endless.wav') {
    // No Content-Length (chunked): only counting while streaming can stop it.
    res.writeHead(200, { 'content-type': 'audio/wav' });
    return drip(res, 50_000_000);
  }
  if (url === '/cut.wav') {
    // Half of what it declares, then the connection drops (Range ignored): every attempt is cut.
    res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': String(WAV.length * 2) });
    res.write(WAV);
    return void setTimeout(() => res.destroy(), 20);
  }
  if (url === '/page.wav') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    return void res.end('<html>login</html>');
  }
  if (url === '/moved.wav') {
    res.writeHead(302, { location: `${self}/ok.wav` });
    return void res.end();
  }
  if (url === '/to-other.wav') {
    res.writeHead(307, { location: `${other.origin}/stolen.wav` });
    return void res.end();
  }
  if (url === '/to-data.wav') {
    res.writeHead(302, { location: 'data:audio/wav;base64,UklGRg==' });
    return void res.end();
  }
  res.writeHead(404);
  res.end();
});

// A false Content-Length (under the cap) followed by far more bytes, the connection then closed.
let liar: net.Server;
let liarOrigin = '';

beforeAll(async () => {
  await other.start();
  await service.start();
  liar = net.createServer((socket) => {
    socket.once('data', () => {
      socket.write(
        'HTTP/1.1 200 OK\r\ncontent-type: audio/wav\r\ncontent-length: 500000\r\nconnection: close\r\n\r\n',
      );
      let sent = 0;
      const more = () => {
        while (sent < 8_000_000 && !socket.destroyed) {
          sent += CHUNK.length;
          if (!socket.write(CHUNK)) return void socket.once('drain', more);
        }
        socket.end();
      };
      socket.on('error', () => undefined);
      more();
    });
  });
  await new Promise<void>((r) => liar.listen(0, '127.0.0.1', r));
  liarOrigin = `http://127.0.0.1:${(liar.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await other.stop();
  await service.stop();
  await new Promise<void>((r) => liar.close(() => r()));
});

let t: TempDb | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
  other.hits.length = 0;
  service.credentials.length = 0;
  service.hits.length = 0;
});

const column = (id: string, url: string): CallColumns => ({
  id,
  to_number: '+919876543210',
  name: id,
  status: 'completed',
  sub_status: null,
  terminal: 1,
  created_at: new Date().toISOString(),
  created_ms: Date.now(),
  attempt_ms: Date.now(),
  call_duration: 10,
  call_cost: 1,
  voicemail: 0,
  agent_id: null,
  agent_name: null,
  transcript_raw: null,
  transcript_text: '',
  number_text: '919876543210 9876543210',
  raw: JSON.stringify({ id }),
  recordingUrl: url,
  recordingExpiresMs: Date.now() + 3_600_000,
});

/** A data folder whose calls have these recording URLs; then one pass of the queue. */
async function pass(urls: Record<string, string>, options: Partial<RecordingsOptions> = {}) {
  if (!t) {
    t = await openTempDb();
    await insertWorkspace(t.db);
    await t.db.call('calls.upsert', {
      workspaceId: 'w1',
      bulkListId: null,
      rows: Object.entries(urls).map(([id, url]) => column(id, url)),
      nowIso: new Date().toISOString(),
    });
  }
  const db = t.db;
  const result = await saveRecordings({
    db,
    dataDir: t.dir,
    workspaceId: 'w1',
    signal: new AbortController().signal,
    baseDelayMs: 1,
    maxAttempts: 2,
    serviceOrigin: service.origin,
    ...options,
  });
  const state = async (id: string) => {
    const call = await db.call('calls.get', { callId: id });
    return { state: call?.recording, error: call?.rec_error ?? null, path: call?.rec_path ?? null };
  };
  return { result, state, dir: t.dir };
}

/** Every file under recordings/, with its size. */
function filesUnder(dataDir: string): Array<{ name: string; size: number }> {
  const root = recordingsDir(dataDir);
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => ({ name: d.name, size: statSync(join(d.parentPath, d.name)).size }));
}

describe('recording size cap', () => {
  it('refuses a recording declaring 5,000,000,000 bytes (default cap): no file, no .part, never asked again', async () => {
    const { result, state, dir } = await pass({ c1: `${service.origin}/huge.wav` });
    expect(result).toMatchObject({ saved: 0, failed: 1 });
    const c1 = await state('c1');
    expect(c1.state).toBe('failed');
    expect(c1.error).toMatch(/5000 MB, over the 200 MB size limit/);
    expect(filesUnder(dir)).toEqual([]);
    const again = await pass({});
    expect(again.result).toMatchObject({ saved: 0, failed: 0 });
    expect(service.hits).toEqual(['/huge.wav']);
  });

  it('stops a download streaming past the cap with no Content-Length: no file over the cap, no .part', async () => {
    const cap = 1_000_000;
    const { result, state, dir } = await pass({ c1: `${service.origin}/endless.wav` }, { maxBytes: cap });
    expect(result).toMatchObject({ saved: 0, failed: 1 });
    expect(await state('c1')).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/larger than the 1 MB size limit/),
    });
    expect(filesUnder(dir)).toEqual([]);
  });

  it('a false (small) Content-Length followed by megabytes: only the declared bytes reach the disk', async () => {
    const cap = 1_000_000;
    // The liar is on another port than the service: give it the service's trust for this case.
    const { state, dir } = await pass(
      { c1: `${liarOrigin}/lying.wav` },
      { maxBytes: cap, serviceOrigin: liarOrigin },
    );
    const c1 = await state('c1');
    expect(c1.state).toBe('saved');
    expect(statSync(c1.path!).size).toBe(500_000);
    expect(filesUnder(dir).filter((f) => f.size > cap || f.name.endsWith('.part'))).toEqual([]);
  });

  it('a download cut on every attempt ends failed with its partial file removed', async () => {
    const { result, state, dir } = await pass({ c1: `${service.origin}/cut.wav` });
    expect(result).toMatchObject({ saved: 0, failed: 1, retried: 1 });
    expect((await state('c1')).state).toBe('failed');
    expect(service.hits).toEqual(['/cut.wav', '/cut.wav']);
    expect(filesUnder(dir)).toEqual([]);
  });

  it('the partial file of a cut download counts in the disk use; a pass removes one nothing will resume', async () => {
    const { dir } = await pass({ c1: `${service.origin}/ok.wav` });
    const folder = join(recordingsDir(dir), 'w1');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'gone.wav.part'), Buffer.alloc(12_345));
    expect(partialDownloads(dir)).toEqual({ bytes: 12_345, files: 1 });
    await pass({});
    expect(partialDownloads(dir)).toEqual({ bytes: 0, files: 0 });
  });
});

describe('recording content type', () => {
  it('refuses an HTML page served as a recording', async () => {
    const { state, dir } = await pass({ c1: `${service.origin}/page.wav` });
    expect(await state('c1')).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/text\/html.*not audio/),
    });
    expect(filesUnder(dir)).toEqual([]);
  });
});

describe('recording URL check', () => {
  it("saves a recording on the service's own origin, even on loopback, private (0600 in a 0700 folder), without credentials", async () => {
    const { state } = await pass({ c1: `${service.origin}/ok.wav`, c2: `${service.origin}/moved.wav` });
    for (const id of ['c1', 'c2']) {
      const s = await state(id);
      expect(s.state).toBe('saved');
      expect((statSync(s.path!).mode & 0o777).toString(8)).toBe('600');
      expect((statSync(join(s.path!, '..')).mode & 0o777).toString(8)).toBe('700');
    }
    // Downloads carry no credential of the workspace.
    expect([...service.hits].sort()).toEqual(['/moved.wav', '/ok.wav', '/ok.wav']);
    expect(service.credentials).toEqual([]);
  });

  it('refuses loopback URLs that are not the service, and data: URLs, without a request; never asked again', async () => {
    const urls = {
      c1: `${other.origin}/ok.wav`,
      c2: 'data:audio/wav;base64,UklGRg==',
      c3: 'file:///etc/passwd',
    };
    const { result, state, dir } = await pass(urls);
    expect(result).toMatchObject({ saved: 0, failed: 3 });
    expect(await state('c1')).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/host 127\.0\.0\.1:\d+ is a local or private address/),
    });
    expect((await state('c2')).error).toMatch(/must be http\(s\), not data:/);
    expect((await state('c3')).error).toMatch(/not file:/);
    expect(other.hits).toEqual([]);
    expect(filesUnder(dir)).toEqual([]);
    expect((await pass({})).result).toMatchObject({ failed: 0, saved: 0 });
  });

  it('refuses a redirect from an allowed URL to loopback (another port) or to data:', async () => {
    const { state, dir } = await pass({
      c1: `${service.origin}/to-other.wav`,
      c2: `${service.origin}/to-data.wav`,
    });
    expect((await state('c1')).error).toMatch(/local or private address/);
    expect((await state('c2')).error).toMatch(/not data:/);
    expect(other.hits).toEqual([]);
    expect(filesUnder(dir)).toEqual([]);
  });

  it('checks every address a host name resolves to', async () => {
    const lookup = (addresses: string[]) => async () => addresses.map((address) => ({ address, family: 4 }));
    const url = 'https://recordings.example.com/a.mp3';
    expect(await checkRecordingUrl(url, null, lookup(['93.184.216.34']))).toMatchObject({ ok: true });
    expect(await checkRecordingUrl(url, null, lookup(['93.184.216.34', '10.0.0.5']))).toMatchObject({
      ok: false,
      refused: true,
      reason: expect.stringContaining('10.0.0.5'),
    });
    const failing = async () => {
      throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
    };
    expect(await checkRecordingUrl(url, null, failing)).toMatchObject({ ok: false, refused: false });
  });

  it.each([
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['172.32.0.1', true],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['100.128.0.1', true],
    ['0.0.0.0', false],
    ['::1', false],
    ['fd00::1', false],
    ['fe80::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

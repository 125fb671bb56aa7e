// npm run bench:sandbox — history paging throughput of the sandbox over 100,000 seeded calls (limit
// 100), next to the machine's raw loopback HTTP throughput measured in the same run: a bare node:http
// server answering a same-sized JSON body (a real history page), fetched the same way at the same
// concurrency. Both servers run in their own process; this process only fetches.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startNodeScript } from './lib/processes.ts';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '100000' },
    limit: { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '4' },
    'max-seconds': { type: 'string', default: '180' },
  },
});
const totalCalls = Number(values.calls);
const limit = Number(values.limit);
const concurrency = Number(values.concurrency);
const deadline = Date.now() + Number(values['max-seconds']) * 1000;
const apiKey = 'bench-key-0001';
const headers = { 'x-api-key': apiKey };

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

function checkDeadline() {
  if (Date.now() > deadline) throw new Error(`bench exceeded --max-seconds ${values['max-seconds']}`);
}

interface Run {
  requests: number;
  seconds: number;
  latenciesMs: number[];
  bytes: number;
}

/** Fetch `urls` with `concurrency` workers, reading and parsing every body. */
async function fetchAll(urls: string[], onBody?: (url: string, body: unknown) => void): Promise<Run> {
  let next = 0;
  let bytes = 0;
  const latenciesMs: number[] = [];
  const t0 = performance.now();
  async function worker() {
    while (next < urls.length) {
      checkDeadline();
      const url = urls[next++] as string;
      const s = performance.now();
      const res = await fetch(url, { headers });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${text.slice(0, 200)}`);
      const body: unknown = JSON.parse(text);
      latenciesMs.push(performance.now() - s);
      bytes += text.length;
      onBody?.(url, body);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { requests: urls.length, seconds: (performance.now() - t0) / 1000, latenciesMs, bytes };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const tmp = mkdtempSync(join(tmpdir(), 'bench-sandbox-'));
const stops: Array<() => Promise<void>> = [];
try {
  const sandbox = await startNodeScript(
    here('../sandbox/main.ts'),
    ['--port', '0', '--api-key', apiKey, '--seed', '1', '--speed', '0'],
    /sandbox listening on (\S+)/,
  );
  stops.push(sandbox.stop);
  const baseUrl = sandbox.match[1] as string;
  const controlUrl = baseUrl.replace(/\/v0$/, '/_sandbox');

  const seedStart = performance.now();
  const seeded = await fetch(`${controlUrl}/seed-calls`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ count: totalCalls }),
    signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
  });
  if (seeded.status !== 200) throw new Error(`seed-calls failed: ${await seeded.text()}`);
  const seedSeconds = (performance.now() - seedStart) / 1000;

  const pages = Math.ceil(totalCalls / limit);
  // An explicit window covering the seeded 30 days: without one the service answers its fixed default day.
  const window = 'start_date=2000-01-01T00:00:00Z&end_date=2100-01-01T00:00:00Z';
  const pageUrls = Array.from(
    { length: pages },
    (_, i) => `${baseUrl}/calling/history?${window}&limit=${limit}&offset=${i * limit}`,
  );

  // A real page body for the baseline (same size and shape as what the sandbox serves).
  const sample = await fetch(pageUrls[Math.floor(pages / 2)] as string, { headers });
  const sampleText = await sample.text();
  const bodyFile = join(tmp, 'page.json');
  writeFileSync(bodyFile, sampleText);
  const bare = await startNodeScript(here('./lib/bareJsonServer.ts'), [bodyFile], /listening (\d+)/);
  stops.push(bare.stop);
  const bareUrl = `http://127.0.0.1:${bare.match[1]}/v0/calling/history`;
  const bareUrls = pageUrls.map((u) => bareUrl + u.slice(u.indexOf('?')));

  // Warm up both (connections, JIT, SQLite page cache).
  await fetchAll(pageUrls.slice(0, 50));
  await fetchAll(bareUrls.slice(0, 50));

  const seen = new Set<string>();
  const rawBefore = await fetchAll(bareUrls);
  const sb = await fetchAll(pageUrls, (_url, body) => {
    for (const c of (body as { calls: Array<{ id: string }> }).calls) seen.add(c.id);
  });
  const rawAfter = await fetchAll(bareUrls);
  if (seen.size !== totalCalls)
    throw new Error(`paging returned ${seen.size} distinct calls, expected ${totalCalls}`);

  const sbCallsPerSec = totalCalls / sb.seconds;
  const rawReqPerSec = (rawBefore.requests + rawAfter.requests) / (rawBefore.seconds + rawAfter.seconds);
  const rawCallsPerSec = rawReqPerSec * limit;
  const rawLat = [...rawBefore.latenciesMs, ...rawAfter.latenciesMs];

  console.log(
    `sandbox bench: ${fmt(totalCalls)} calls, limit ${limit}, concurrency ${concurrency}, Node ${process.version}`,
  );
  console.log(
    `  seed-calls           ${fmt(totalCalls)} calls in ${seedSeconds.toFixed(2)} s (${fmt(totalCalls / seedSeconds)} calls/s)`,
  );
  console.log(`  page body            ${fmt(sampleText.length)} bytes (a real page of ${limit} calls)`);
  console.log(
    `  sandbox history      ${fmt(sbCallsPerSec)} calls/s  (${fmt(pages / sb.seconds)} pages/s, ${pages} pages in ${sb.seconds.toFixed(2)} s; page latency p50 ${pct(sb.latenciesMs, 50).toFixed(1)} ms, p95 ${pct(sb.latenciesMs, 95).toFixed(1)} ms)`,
  );
  console.log(
    `  raw loopback HTTP    ${fmt(rawCallsPerSec)} calls/s  (${fmt(rawReqPerSec)} req/s of the same body; p50 ${pct(rawLat, 50).toFixed(1)} ms, p95 ${pct(rawLat, 95).toFixed(1)} ms; runs ${fmt(rawBefore.requests / rawBefore.seconds)} and ${fmt(rawAfter.requests / rawAfter.seconds)} req/s)`,
  );
  console.log(`  ratio sandbox / raw  ${(sbCallsPerSec / rawCallsPerSec).toFixed(3)}`);
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  rmSync(tmp, { recursive: true, force: true });
}

// Test fixtures of the review domain: an HTTP proxy on 127.0.0.1 in front of the sandbox that
// forwards every request unchanged and keeps what it saw, so a test can show what reached the
// service (and that review marks never did); a campaign launched from a contact list, as the
// campaigns feature records it, so a sync reads its calls by bulk_list_id.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { value } from '../calls/testing.ts';
import { generate, importThroughService } from '../contacts/testing.ts';
import type { ImportTarget } from '../contacts/testing.ts';
import type { Desk } from '../createDesk.ts';
import { DATABASE_FILE_NAME } from '../db/openDatabase.ts';

/**
 * Records that `bulkListId` went out from a (small, generated) contact list of the workspace: the
 * one row a launch writes (`campaign_lists`), written into the data folder's SQLite file.
 */
export async function linkCampaign(
  desk: Desk,
  a: { dataDir: string; workspaceId: string; bulkListId: string },
): Promise<void> {
  const target: ImportTarget = {
    importBegin: async (req) => value(await desk.handle('contacts:import-begin', req)),
    importBatch: async (req) => value(await desk.handle('contacts:import-batch', req)),
    importFinish: async (req) => value(await desk.handle('contacts:import-finish', req)),
  };
  const { list } = await importThroughService(target, generate(20, 3).bytes);
  const file = new Database(join(a.dataDir, DATABASE_FILE_NAME));
  try {
    file.pragma('busy_timeout = 5000');
    file
      .prepare(`INSERT INTO campaign_lists (workspace_id, bulk_list_id, list_id) VALUES (?, ?, ?)`)
      .run(a.workspaceId, a.bulkListId, list.id);
  } finally {
    file.close();
  }
}

export interface SeenRequest {
  method: string;
  url: string;
  /** Header names and values, the API key left out. */
  headers: string;
  body: string;
}

export interface RecordingProxy {
  /** The proxy's `…/v0` (give it to the workspace instead of the sandbox's). */
  baseUrl: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export async function recordingProxy(targetBaseUrl: string): Promise<RecordingProxy> {
  const target = new URL(targetBaseUrl);
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: Object.entries(req.headers)
          .filter(([k]) => k !== 'x-api-key')
          .map(([k, v]) => `${k}: ${String(v)}`)
          .join('\n'),
        body: body.toString('utf8'),
      });
      const forward = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.writeHead(502).end());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname.replace(/\/$/, '')}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

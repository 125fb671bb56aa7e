import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DESK_SOCKET_PATH } from '../../shared/ipc/wire.ts';
import type { Desk, DeskOptions } from '../services/createDesk.ts';
import { startDesk } from '../services/startDesk.ts';
import type { Logger } from '../services/logging/logger.ts';
import { silentLogger } from '../services/logging/logger.ts';
import { contentSecurityPolicy } from '../services/security/csp.ts';
import { createDeskSocket } from './deskSocket.ts';
import { isDownloadRequest, serveDownload } from './downloads.ts';
import { isRecordingRequest, serveRecording } from './recordings.ts';
import { openInChromium } from './openInChromium.ts';
import { serveStatic } from './staticServer.ts';

export interface BrowserHostOptions {
  /** 0 (default) lets the OS choose. The host binds 127.0.0.1 only. */
  port?: number;
  dataDir: string;
  /** The built renderer (dist/renderer). */
  staticDir: string;
  /** Open the URL in Chromium's app mode (the CLI decides whether it can). */
  open?: boolean;
  version?: string;
  sandbox?: DeskOptions['sandbox'];
  secrets?: DeskOptions['secrets'];
  timings?: DeskOptions['timings'];
  logger?: Logger;
  /** Told while the local database is upgraded at start (the page shows it too). */
  onUpgrade?: DeskOptions['onUpgrade'];
}

export interface BrowserHost {
  /** `http://127.0.0.1:<port>/#token=<token>`: the token rides in the fragment, never in a request. */
  url: string;
  origin: string;
  token: string;
  port: number;
  /** Answers at once; requests other than `app:startup` wait until the back end has started. */
  desk: Desk;
  /** The started back end, once any upgrade of the database is done; rejects if it failed. */
  started: Promise<Desk>;
  /** Resolves when the Chromium window opened by `open` exits (never, if none was opened). */
  windowClosed: Promise<void>;
  close(): Promise<void>;
}

/**
 * The browser host: the back end (createDesk) plus a loopback HTTP server for the renderer and the
 * contract over a token-guarded WebSocket. Same UI, same back end as Electron. Resolves once the
 * back end has started or is upgrading the database (the page shows the upgrade: startDesk.ts);
 * rejects when it could not start before that.
 */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const logger = options.logger ?? silentLogger;
  const starting = startDesk({
    dataDir: options.dataDir,
    host: 'browser',
    version: options.version ?? '0.0.0',
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    ...(options.secrets ? { secrets: options.secrets } : {}),
    ...(options.timings ? { timings: options.timings } : {}),
    ...(options.onUpgrade ? { onUpgrade: options.onUpgrade } : {}),
    logger,
  });
  await starting.answering;
  const { desk, started } = starting;
  const token = randomBytes(32).toString('base64url');
  let origin = '';
  const socket = createDeskSocket({ desk, token, origin: () => origin, logger });
  let serve: ReturnType<typeof serveStatic> | null = null;

  const server = createServer((req, res) => {
    if (req.headers.host !== new URL(origin).host) {
      res.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' });
      return void res.end('Forbidden host\n');
    }
    if (isDownloadRequest(req)) return serveDownload(options.dataDir, req, res);
    if (isRecordingRequest(req)) return serveRecording(req, res);
    serve!(req, res);
  });
  server.on('upgrade', (req, sock, head) => socket.handleUpgrade(req, sock, head));
  server.on('clientError', (_error, sock) => sock.destroy());

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await desk.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  serve = serveStatic(
    options.staticDir,
    contentSecurityPolicy({ connectSrc: [`ws://127.0.0.1:${port}${DESK_SOCKET_PATH}`] }),
  );
  const url = `${origin}/#token=${token}`;
  logger.info('browser host listening', { origin });

  const window = options.open ? openInChromium(url, options.dataDir) : null;
  const windowClosed = new Promise<void>((resolve) => window?.child.once('exit', () => resolve()));

  let closing: Promise<void> | null = null;
  return {
    url,
    origin,
    token,
    port,
    desk,
    started,
    windowClosed,
    close() {
      closing ??= (async () => {
        window?.dispose();
        await socket.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await desk.close();
      })();
      return closing;
    },
  };
}

/**
 * `node electron/browser-host/main.ts [--port n] [--data dir] [--no-open] [--no-sandbox]`
 * Starts the browser host and prints exactly one line on stdout when ready:
 *   Campaign Desk is running in your browser at http://127.0.0.1:<port>/#token=<token>
 * Errors are one line on stderr (exit 1); bad arguments exit 2.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeskFailure } from '../../shared/ipc/result.ts';
import { defaultDataDir } from '../services/dataDir.ts';
import type { Logger } from '../services/logging/logger.ts';
import { processIo } from '../cli/io.ts';
import { upgradeProgress } from '../cli/upgradeProgress.ts';
import { whyNotOpen } from './openInChromium.ts';
import { startBrowserHost } from './startBrowserHost.ts';
import type { BrowserHost } from './startBrowserHost.ts';

export const READY_LINE_PREFIX = 'Campaign Desk is running in your browser at ';

const usage = `Usage: npm run web -- [--port <n>] [--data <dir>] [--no-open] [--no-sandbox]
  --port <n>     port on 127.0.0.1 (default 0: any free port)
  --data <dir>   data folder (default $DESK_DATA_DIR, else $XDG_DATA_HOME/campaign-desk or
                 ~/.local/share/campaign-desk on Linux)
  --no-open      do not open a Chromium window
  --no-sandbox   do not start the built-in Sandbox workspace
  --static <dir> the built UI to serve (default dist/renderer)`;

export interface HostArgs {
  port: number;
  dataDir: string;
  open: boolean;
  sandbox: boolean;
  staticDir: string | null;
}

export function parseArgs(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): HostArgs | { error: string } | 'help' {
  const args: HostArgs = {
    port: 0,
    dataDir: defaultDataDir(env),
    open: true,
    sandbox: true,
    staticDir: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const next = () => inline ?? argv[++i];
    switch (flag) {
      case '--port': {
        const raw = next();
        const port = Number(raw);
        if (raw === undefined || !/^\d+$/.test(raw) || port > 65535)
          return { error: `--port needs a number from 0 to 65535 (got ${raw ?? 'nothing'})` };
        args.port = port;
        break;
      }
      case '--data': {
        const dir = next();
        if (!dir) return { error: '--data needs a folder' };
        args.dataDir = dir;
        break;
      }
      case '--static': {
        const dir = next();
        if (!dir) return { error: '--static needs a folder' };
        args.staticDir = dir;
        break;
      }
      case '--no-open':
        args.open = false;
        break;
      case '--no-sandbox':
        args.sandbox = false;
        break;
      case '--help':
      case '-h':
        return 'help';
      default:
        return { error: `unknown argument: ${arg}` };
    }
  }
  return args;
}

/** The project folder: the nearest one above with a package.json (this code also runs bundled, from dist-electron/). */
const repoRoot = ((): string => {
  let dir = fileURLToPath(new URL('.', import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
})();

const readVersion = (): string => {
  try {
    return (
      (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version?: string }).version ??
      '0.0.0'
    );
  } catch {
    return '0.0.0';
  }
};

/** Errors (already redacted by the desk) also go to stderr, so a terminal user sees them. */
const stderrLogger: Logger = {
  info: () => {},
  warn: () => {},
  error: (message) => process.stderr.write(`campaign-desk: ${message} (details in the log file)\n`),
};

const oneLine = (error: unknown): string => {
  if (error instanceof DeskFailure) return error.message;
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE')
    return 'That port is already in use: choose another with --port, or --port 0 for any free one.';
  if (code === 'EACCES') return 'Not allowed to listen on that port: choose another with --port.';
  return error instanceof Error ? error.message : String(error);
};

/** The whole CLI: resolves with the exit code once the host has stopped (or failed to start). */
export async function runBrowserHostCli(argv: string[]): Promise<number> {
  const parsed = parseArgs(argv);
  if (parsed === 'help') {
    console.log(usage);
    return 0;
  }
  if ('error' in parsed) {
    process.stderr.write(`campaign-desk web: ${parsed.error}\n${usage}\n`);
    return 2;
  }
  const staticDir = parsed.staticDir ?? join(repoRoot, 'dist', 'renderer');
  if (!existsSync(join(staticDir, 'index.html'))) {
    process.stderr.write(
      parsed.staticDir
        ? `campaign-desk web: ${join(staticDir, 'index.html')} is missing.\n`
        : 'campaign-desk web: the UI is not built (dist/renderer/index.html is missing): run `npm run build:renderer` first.\n',
    );
    return 1;
  }
  const notOpening = parsed.open ? whyNotOpen() : 'no-open';
  // An upgrade of the data folder's database shows on stderr too (the page shows it as well).
  const upgrade = upgradeProgress(processIo());
  let host: BrowserHost;
  try {
    host = await startBrowserHost({
      port: parsed.port,
      dataDir: parsed.dataDir,
      staticDir,
      open: notOpening === null,
      version: readVersion(),
      sandbox: parsed.sandbox ? 'auto' : 'off',
      logger: stderrLogger,
      onUpgrade: upgrade.onUpgrade,
    });
  } catch (error) {
    upgrade.end();
    process.stderr.write(`campaign-desk web: ${oneLine(error)}\n`);
    return 1;
  }
  // An upgrade that fails leaves the page saying why; the terminal says it too.
  void host.started.then(
    () => upgrade.end(),
    (error: unknown) => {
      upgrade.end();
      process.stderr.write(`campaign-desk web: ${oneLine(error)}\n`);
    },
  );
  return new Promise<number>((resolve) => {
    const stop = () =>
      void host.close().then(
        () => resolve(0),
        () => resolve(1),
      );
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    // Only once Ctrl-C is handled: whoever waits for this line may signal us right away.
    process.stdout.write(`${READY_LINE_PREFIX}${host.url}\n`);
    const openedAt = Date.now();
    void host.windowClosed.then(() => {
      // The operator closed the app window: stop too. A window that died at once did not open
      // properly; keep serving so the printed address still works.
      if (Date.now() - openedAt > 3000) stop();
      else
        process.stderr.write(
          'campaign-desk web: the Chromium window could not be opened; use the address above.\n',
        );
    });
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  runBrowserHostCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`campaign-desk web: ${oneLine(error)}\n`);
      process.exit(1);
    },
  );
}

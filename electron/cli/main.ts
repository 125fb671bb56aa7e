// `campaign-desk <command>`: the command-line face of Campaign Desk (npm run -s cli -- …, or the
// `campaign-desk` bin). Commands: clean (contacts engine), sandbox (local calling service), web
// (the app in a browser). Errors are one line on stderr, never a stack trace (DESK_DEBUG=1 shows
// one for internal errors).
import { terminalText } from '../../shared/domain/visibleText.ts';
import { existsSync } from 'node:fs';
import { enableCompileCache, getCompileCacheDir } from 'node:module';
import { fileURLToPath } from 'node:url';
import { EXIT, UsageError } from './exitCodes.ts';
import { processIo } from './io.ts';
import type { Io } from './io.ts';

/**
 * Node's on-disk compile cache (in the OS temp folder) for this process and, through the
 * environment, its worker threads: the TypeScript sources are stripped and compiled once instead
 * of on every run in every thread. Commands are imported after this, on demand.
 */
function useCompileCache(): void {
  if (process.env.NODE_COMPILE_CACHE || process.env.DESK_NO_COMPILE_CACHE) return;
  try {
    enableCompileCache();
    const dir = getCompileCacheDir();
    if (dir) process.env.NODE_COMPILE_CACHE = dir;
  } catch {
    // A read-only temp folder only costs start-up time.
  }
}

export const usage = `Usage: campaign-desk <command> [options]

Commands:
  clean <file>   clean a contacts CSV or .xlsx workbook into upload, rejects and report files
  sandbox        run the local calling-service sandbox on 127.0.0.1
  web            run Campaign Desk in your browser
  agents         list a workspace's agents (key from CAMPAIGN_DESK_API_KEY)
  launch <file>  clean a contacts file and launch it as a campaign (resumable, starts once)
  sync           pull the call history (and recordings) into a data folder
  calls export   write the stored calls as CSV
  calls qa-report  write a campaign's QA review report as CSV

Run "campaign-desk <command> --help" for a command's options.`;

// Bundled (dist-electron/cli.js) every command is inside the bundle.
const available = (relative: string): boolean =>
  !import.meta.url.endsWith('.ts') || existsSync(fileURLToPath(new URL(relative, import.meta.url)));

async function dispatch(argv: string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      io.out(usage);
      return command === undefined ? EXIT.usage : EXIT.ok;
    case 'clean': {
      const { runClean } = await import('./cleanCommand.ts');
      return runClean(rest, io);
    }
    case 'sandbox': {
      if (!available('../services/sandbox/startSandbox.ts')) break;
      const { runSandbox } = await import('./sandboxCommand.ts');
      return runSandbox(rest, io);
    }
    case 'sync': {
      const { runSyncCommand } = await import('./callsCommands.ts');
      return runSyncCommand(rest, io);
    }
    case 'calls': {
      const { runCallsCommand } = await import('./callsCommands.ts');
      return runCallsCommand(rest, io);
    }
    case 'web': {
      if (!available('../browser-host/main.ts')) break;
      const { runBrowserHostCli } = await import('../browser-host/main.ts');
      return runBrowserHostCli(rest);
    }
    case 'agents': {
      const { runAgents } = await import('./agentsCommand.ts');
      return runAgents(rest, io);
    }
    case 'launch': {
      const { runLaunchCommand } = await import('./launchCommand.ts');
      return runLaunchCommand(rest, io);
    }
    default:
      throw new UsageError(
        `unknown command "${command}" (commands: clean, sandbox, web, agents, launch, sync, calls)`,
      );
  }
  io.err(`campaign-desk ${command}: not available yet`);
  return EXIT.usage;
}

/** Runs a command line; resolves with the exit code. */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      const command = ['clean', 'sandbox', 'agents', 'launch', 'sync', 'calls'].includes(argv[0] ?? '')
        ? ` ${argv[0]}`
        : '';
      io.err(`campaign-desk${command}: ${terminalText(error.message)} (see campaign-desk${command} --help)`);
      return EXIT.usage;
    }
    const e = error instanceof Error ? error : new Error(String(error));
    io.err(`campaign-desk: internal error: ${terminalText(e.message)}`);
    if (process.env.DESK_DEBUG) io.err(e.stack ?? '');
    return EXIT.internal;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  useCompileCache();
  process.exitCode = await main(process.argv.slice(2));
}

export { useCompileCache };

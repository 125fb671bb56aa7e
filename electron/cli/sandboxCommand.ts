// `campaign-desk sandbox`: the embedded sandbox calling service (electron/services/sandbox), on
// 127.0.0.1 and a free port, until Ctrl-C.
import { terminalText } from '../../shared/domain/visibleText.ts';
import { EXIT, parseCommandLine, UsageError } from './exitCodes.ts';
import type { Io } from './io.ts';

export const sandboxUsage = `Usage: campaign-desk sandbox --api-key <key> [--bearer <token>] [--data <dir>] [--seed <n>]

Runs the local calling-service sandbox on 127.0.0.1 (a free port) and prints
"sandbox listening on <base URL>". Stop it with Ctrl-C.
  --api-key <key>    the X-API-KEY clients must send (or set SANDBOX_API_KEY)
  --bearer <token>   the bearer token for the event-subscription operation
  --data <dir>       keep the sandbox's data in this folder (default: in memory)
  --seed <n>         seed for the sandbox's generated data`;

export async function runSandbox(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommandLine({
    args: argv,
    strict: true,
    options: {
      'api-key': { type: 'string' },
      bearer: { type: 'string' },
      data: { type: 'string' },
      seed: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    io.out(sandboxUsage);
    return EXIT.ok;
  }
  const apiKey = values['api-key'] ?? process.env.SANDBOX_API_KEY;
  if (!apiKey) throw new UsageError('--api-key is required (or set SANDBOX_API_KEY)');
  if (values.seed !== undefined && !/^-?\d+$/.test(values.seed)) {
    throw new UsageError(`--seed must be an integer (got "${values.seed}")`);
  }
  const { startSandboxWorker } = await import('../services/sandbox/startSandbox.ts');
  let sandbox;
  try {
    sandbox = await startSandboxWorker({
      apiKey,
      ...(values.bearer ? { bearerToken: values.bearer } : {}),
      ...(values.data ? { dataDir: values.data } : {}),
      ...(values.seed !== undefined ? { seed: Number(values.seed) } : {}),
    });
  } catch (error) {
    io.err(`campaign-desk sandbox: ${terminalText(error instanceof Error ? error.message : String(error))}`);
    return EXIT.failed;
  }
  const running = sandbox;
  return new Promise<number>((resolve) => {
    const stop = (): void => {
      io.offInterrupt(stop);
      void running.close().then(
        () => resolve(EXIT.ok),
        () => resolve(EXIT.failed),
      );
    };
    io.onInterrupt(stop);
    // Only once Ctrl-C is handled: whoever waits for this line may interrupt us right away.
    io.out(`sandbox listening on ${running.baseUrl}`);
  });
}

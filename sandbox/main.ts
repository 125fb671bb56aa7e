// `npm run sandbox -- --port <n|0> --api-key <key> [--bearer <token>] [--data <dir>] [--seed <n>] [--speed <f>] [--network <profile>]`
// Prints exactly one line when ready: `sandbox listening on http://127.0.0.1:<port>/v0`.
import { parseArgs } from 'node:util';
import { parseNetworkProfile } from './http/network.ts';
import type { NetworkProfile } from './http/network.ts';
import { startSandbox } from './server.ts';

const usage =
  'usage: npm run sandbox -- --port <n|0> --api-key <key> [--bearer <token>] [--data <dir>] [--seed <n>] [--speed <f>] [--network rtt=80ms,jitter=20ms,bw=2MB/s] [--verbose]';

function fail(message: string): never {
  console.error(`sandbox: ${message}\n${usage}`);
  process.exit(2);
}

let args;
try {
  args = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'api-key': { type: 'string' },
      bearer: { type: 'string' },
      data: { type: 'string' },
      seed: { type: 'string' },
      speed: { type: 'string' },
      network: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  }).values;
} catch (e) {
  fail(e instanceof Error ? e.message : String(e));
}
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const apiKey = args['api-key'] ?? process.env.SANDBOX_API_KEY;
if (!apiKey) fail('--api-key is required (or set SANDBOX_API_KEY)');
if (!/^\d+$/.test(args.port) || Number(args.port) > 65535)
  fail(`--port must be a port number or 0, got "${args.port}"`);
if (args.seed !== undefined && !/^-?\d+$/.test(args.seed))
  fail(`--seed must be an integer, got "${args.seed}"`);
if (args.speed !== undefined && !(Number(args.speed) >= 0))
  fail(`--speed must be a non-negative number, got "${args.speed}"`);
let network: NetworkProfile | undefined;
if (args.network !== undefined) {
  try {
    network = parseNetworkProfile(args.network);
  } catch (e) {
    fail(`--network: ${(e as Error).message}`);
  }
}

try {
  const sandbox = await startSandbox({
    port: Number(args.port),
    apiKey,
    ...(args.bearer ? { bearerToken: args.bearer } : {}),
    ...(args.data ? { dataDir: args.data } : {}),
    ...(args.seed !== undefined ? { seed: Number(args.seed) } : {}),
    ...(args.speed !== undefined ? { clockSpeed: Number(args.speed) } : {}),
    ...(network ? { network } : {}),
    quiet: !args.verbose,
  });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    sandbox.close().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error(`sandbox: error while stopping: ${e instanceof Error ? e.message : String(e)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Only once Ctrl-C is handled: whoever waits for this line may signal us right away.
  console.log(`sandbox listening on ${sandbox.baseUrl}`);
} catch (e) {
  const err = e as NodeJS.ErrnoException;
  console.error(
    `sandbox: cannot start: ${err.code === 'EADDRINUSE' ? `port ${args.port} is in use` : err.message}`,
  );
  process.exit(1);
}

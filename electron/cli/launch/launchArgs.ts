// The launch command's options: its usage text, the command line read into LaunchArgs (a usage
// error names the option) and the call settings they give.
import { CALL_PURPOSES } from '../../../shared/domain/callingHours.ts';
import type { CallPurpose } from '../../../shared/domain/callingHours.ts';
import type { CallConfig } from '../../../shared/service/callConfig.ts';
import { countryCodeSchema } from '../../../shared/service/upload.ts';
import { API_KEY_ENV } from '../agentsCommand.ts';
import { parseCommandLine, UsageError } from '../exitCodes.ts';

export const launchUsage = `Usage: campaign-desk launch <file.csv> --data <dir> (--workspace <name> | --base-url <url>)
    --agent <agent_id> --name <campaign name> (--pool <number_pool_id> | --from <id or E.164>...)
    --country <+91|IN> [--map var=Column]... --start "DD/MM/YYYY, HH:MM" --end "DD/MM/YYYY, HH:MM"
    --timezone <IANA> [--window HH:MM-HH:MM] [--retries n] [--concurrency 0-100]
    [--purpose promotional|loan-recovery|other] [--accept-hours]
    [--remove-invalid] [--accept-shortfall] [--suppress <do-not-call file>]... [--report launch.json] [--yes]

Cleans the file with the contacts engine, then launches it: 5,000 valid rows or more go through
upload-csv, upload status, balance check and make-call-async; fewer through campaign save and start.
Every step is kept in <dir>/campaign-desk.sqlite: running the same command again (same file, name
and API key) resumes the launch and never starts a second campaign; a launch the service refused is
tried again with the new command's options. Before anything is sent it prints what will go out
(campaign, file, calls, credits, window, start and end, caller numbers, agent and its name, and
the contacts also in campaigns running or run in the last 7 days in --data) and asks to start the
calls (y/N); where stdin is not a terminal (a script) --yes is needed.
--purpose (default other) picks the recipients' permitted calling hours, as the app's Purpose does
(India: promotional 09:00-21:00, loan-recovery 08:00-19:00, local time): a daily window outside
them is a warning to acknowledge: asked on a terminal, --accept-hours where stdin is not one.
With --base-url the key is read from ${API_KEY_ENV};
with --workspace, from the OS keychain of the app's workspace of that name (in --data).
Numbers on the do-not-call list are held back (the summary counts them): those of each --suppress file
(CSV or .xlsx, read as contact lists are), of the --workspace's list and of the shared list in --data,
checked again right before the upload.
Before anything is uploaded, a launch needing more credits than the workspace has is refused (both
figures said), and so is one whose calls cannot all fit before --end unless --accept-shortfall.
Prints the campaign's id (bulk_list_id or list id) on stdout once started.
Exit codes: 0 started, 1 refused, not confirmed or the file cannot be read (one line says why),
2 bad usage (--yes or --accept-hours missing off a terminal),
3 the service cannot tell whether it started (check it on the service; a re-run never sends the
start again), 75 service unreachable (run again).`;

/** Request timeout; CAMPAIGN_DESK_TIMEOUT_MS shortens it (tests inject slow answers). */
export const timeoutMs = (): number => {
  const n = Number(process.env.CAMPAIGN_DESK_TIMEOUT_MS);
  return Number.isInteger(n) && n > 0 ? n : 20_000;
};
const hhmm = /^([01]\d|2[0-3]):[0-5]\d$/;

export interface LaunchArgs {
  file: string;
  data: string;
  workspace: string | undefined;
  baseUrl: string | undefined;
  agent: string;
  name: string;
  pool: string | undefined;
  from: string[];
  country: string;
  map: Array<[string, string]>;
  start: string;
  end: string;
  timezone: string;
  window: [string, string] | null;
  retries: number | undefined;
  concurrency: number | undefined;
  removeInvalid: boolean;
  acceptShortfall: boolean;
  purpose: CallPurpose;
  acceptHours: boolean;
  report: string | undefined;
  yes: boolean;
  suppress: string[];
}

export function parseLaunchArgs(argv: string[]): LaunchArgs | 'help' {
  const parsed = parseCommandLine({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      data: { type: 'string' },
      workspace: { type: 'string' },
      'base-url': { type: 'string' },
      agent: { type: 'string' },
      name: { type: 'string' },
      pool: { type: 'string' },
      from: { type: 'string', multiple: true },
      country: { type: 'string' },
      map: { type: 'string', multiple: true },
      start: { type: 'string' },
      end: { type: 'string' },
      timezone: { type: 'string' },
      window: { type: 'string' },
      retries: { type: 'string' },
      concurrency: { type: 'string' },
      'remove-invalid': { type: 'boolean', default: false },
      'accept-shortfall': { type: 'boolean', default: false },
      purpose: { type: 'string' },
      'accept-hours': { type: 'boolean', default: false },
      report: { type: 'string' },
      suppress: { type: 'string', multiple: true },
      yes: { type: 'boolean', short: 'y', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const { values: v, positionals } = parsed;
  if (v.help) return 'help';
  if (positionals.length !== 1) throw new UsageError('name one CSV file to launch');
  const required = (name: 'data' | 'agent' | 'name' | 'country' | 'start' | 'end' | 'timezone'): string => {
    const value = v[name]?.trim();
    if (!value) throw new UsageError(`--${name} is required`);
    return value;
  };
  if ((v.workspace === undefined) === (v['base-url'] === undefined))
    throw new UsageError('give exactly one of --workspace <name> or --base-url <url>');
  if (v['base-url'] !== undefined && !/^https?:\/\//i.test(v['base-url']))
    throw new UsageError('--base-url must start with http:// or https:// and end in /v0');
  const from = v.from ?? [];
  if ((v.pool === undefined) === (from.length === 0))
    throw new UsageError('give exactly one number source: --pool <number_pool_id> or --from <number>...');
  const country = required('country');
  if (!countryCodeSchema.safeParse(country).success)
    throw new UsageError(
      `--country must be a dialing prefix such as +91 or a code such as IN (got "${country}")`,
    );
  let window: [string, string] | null = null;
  if (v.window !== undefined) {
    const [a, b] = v.window.split('-');
    if (!a || !b || !hhmm.test(a) || !hhmm.test(b))
      throw new UsageError(`--window must be HH:MM-HH:MM such as 09:00-18:00 (got "${v.window}")`);
    window = [a, b];
  }
  const int = (name: string, text: string | undefined, max: number): number | undefined => {
    if (text === undefined) return undefined;
    if (!/^\d+$/.test(text) || Number(text) > max)
      throw new UsageError(`--${name} must be a whole number from 0 to ${max}`);
    return Number(text);
  };
  const purpose = v.purpose ?? 'other';
  if (!(CALL_PURPOSES as readonly string[]).includes(purpose))
    throw new UsageError(`--purpose must be one of ${CALL_PURPOSES.join(', ')} (got "${purpose}")`);
  const map = (v.map ?? []).map((entry): [string, string] => {
    const eq = entry.indexOf('=');
    if (eq <= 0 || eq === entry.length - 1) throw new UsageError(`--map needs var=Column (got "${entry}")`);
    return [entry.slice(0, eq).trim(), entry.slice(eq + 1)];
  });
  return {
    file: positionals[0] as string,
    data: required('data'),
    workspace: v.workspace,
    baseUrl: v['base-url'],
    agent: required('agent'),
    name: required('name'),
    pool: v.pool,
    from,
    country,
    map,
    start: required('start'),
    end: required('end'),
    timezone: required('timezone'),
    window,
    retries: int('retries', v.retries, 10),
    concurrency: int('concurrency', v.concurrency, 100),
    removeInvalid: v['remove-invalid'] ?? false,
    acceptShortfall: v['accept-shortfall'] ?? false,
    purpose: purpose as CallPurpose,
    acceptHours: v['accept-hours'] ?? false,
    report: v.report,
    yes: v.yes ?? false,
    suppress: v.suppress ?? [],
  };
}

export function callConfigOf(args: LaunchArgs): CallConfig {
  return {
    call_time: {
      timezone: args.timezone,
      ...(args.window ? { call_start_time: args.window[0], call_end_time: args.window[1] } : {}),
    },
    ...(args.retries !== undefined ? { call_retry_config: { retry_count: args.retries } } : {}),
  };
}

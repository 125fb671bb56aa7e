// Test helpers for launches: a messy contacts file (seeded), the CLI as a child process, and the
// sandbox's view of a list (accepted starts, calls by bulk_list_id over an explicit window).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { instantToCampaignTime } from '../../../shared/domain/dates.ts';
import type { CampaignSettings } from '../../../shared/ipc/channels/campaigns.ts';
import { seededRandom } from '../../../shared/testing/seededRandom.ts';
import type { SandboxProcess } from '../api/testing/sandboxProcess.ts';
import { SUMMARY_HEADING } from './launchSummary.ts';

const cliEntry = fileURLToPath(new URL('../../cli/main.ts', import.meta.url));

/**
 * A loan-reminder contacts file of `rows` rows: local 10-digit numbers, some with +91 or spaces,
 * about 2% bad numbers and 1% repeats of an earlier number. Returns how many rows are valid.
 */
export function writeMessyContacts(path: string, rows: number, seed: number): { valid: number } {
  const rnd = seededRandom(seed);
  const lines = ['Phone,Name,Loan Amount,Due Date,Language,City'];
  const seen: string[] = [];
  let valid = 0;
  for (let i = 1; i <= rows; i++) {
    const r = rnd();
    let phone: string;
    if (r < 0.02) phone = '12345';
    else if (r < 0.03 && seen.length > 0) phone = seen[Math.floor(rnd() * seen.length)] as string;
    else {
      const digits = `9${String(seed % 9)}${String(i).padStart(8, '0')}`;
      phone = r < 0.3 ? `+91 ${digits.slice(0, 5)} ${digits.slice(5)}` : digits;
      seen.push(phone);
      valid++;
    }
    lines.push(`${phone},"Customer ${i}",${(i % 50) * 1000 + 5000},15/12/2026,Hindi,Pune`);
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
  return { valid };
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  /** stderr without the launch summary (its heading and indented figures are in `summary`). */
  stderr: string;
  /** The launch summary's lines as printed before the confirmation ('' when none was printed). */
  summary: string;
}

/** Splits the launch summary (SUMMARY_HEADING and the indented lines after it) from the rest of stderr. */
export function splitSummary(stderr: string): { stderr: string; summary: string } {
  const rest: string[] = [];
  const summary: string[] = [];
  let inSummary = false;
  for (const line of stderr.split(/(?<=\n)/)) {
    if (line.startsWith(SUMMARY_HEADING)) inSummary = true;
    else if (!line.startsWith('  ')) inSummary = false;
    (inSummary ? summary : rest).push(line);
  }
  return { stderr: rest.join(''), summary: summary.join('') };
}

/** `campaign-desk <args>` in its own process (killable), bounded by `timeoutMs`. */
export function runCli(args: string[], env: Record<string, string>, timeoutMs = 90_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliEntry, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`campaign-desk ${args[0]} did not finish in ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, ...splitSummary(stderr) });
    });
  });
}

interface Stats {
  starts: Array<{ bulk_list_id: string; accepted: number; refused: number; refused_already_started: number }>;
}

/** The sandbox's accepted start count for a list (0 when it never saw a start). */
export async function acceptedStarts(sb: SandboxProcess, listId: string): Promise<number> {
  const stats = await sb.control<Stats>('GET', '/stats?deliveries_limit=0');
  return stats.starts.find((s) => s.bulk_list_id === listId)?.accepted ?? 0;
}

/** Calls of a list in the history, over an explicit window (the service's default is one old day). */
export async function callsOfList(sb: SandboxProcess, listId: string): Promise<number> {
  const q = new URLSearchParams({
    bulk_list_id: listId,
    start_date: '2000-01-01T00:00:00Z',
    end_date: '2100-01-01T00:00:00Z',
    limit: '1',
  });
  const res = await fetch(`${sb.baseUrl}/calling/history?${q}`, { headers: { 'x-api-key': sb.apiKey } });
  const body = (await res.json()) as { total: number | string; count: number };
  if (!res.ok) throw new Error(`history: ${res.status} ${JSON.stringify(body)}`);
  if (typeof body.total !== 'number') throw new Error(`history total is not a number: ${String(body.total)}`);
  return body.total;
}

/** The seeded "Loan Repayment Reminder" agent and the first number pool a sandbox offers. */
export async function launchTarget(
  sb: SandboxProcess,
  apiKey: string,
): Promise<{ agentId: string; poolId: string }> {
  const headers = { 'x-api-key': apiKey };
  const agents = (await (await fetch(`${sb.baseUrl}/agent/all?limit=50`, { headers })).json()) as {
    data: { agents: Array<{ id: string; agent_display_name: string }> };
  };
  const numbers = (await (await fetch(`${sb.baseUrl}/workspace/numbers`, { headers })).json()) as {
    workspace_numbers: Array<{ number_pool_id: string }>;
  };
  return {
    agentId: agents.data.agents.find((a) => a.agent_display_name === 'Loan Repayment Reminder')?.id ?? '',
    poolId: numbers.workspace_numbers[0]?.number_pool_id ?? '',
  };
}

/**
 * Builder settings of a sandbox campaign: the given agent and number pool, IST, starting in two days
 * for a week, 09:00–18:00, two retries, "remove invalid rows" on; `over` replaces any of it.
 */
export function campaignSettings(
  target: { agentId: string; poolId: string },
  over: Partial<CampaignSettings> = {},
): CampaignSettings {
  const day = 86_400_000;
  return {
    listId: null,
    agentId: target.agentId,
    versionId: null,
    mapping: {},
    name: 'Reminders',
    countryCode: '+91',
    numberSource: { kind: 'pool', numberPoolId: target.poolId },
    start: instantToCampaignTime(Date.now() + 2 * day, 'Asia/Kolkata'),
    end: instantToCampaignTime(Date.now() + 9 * day, 'Asia/Kolkata'),
    timezone: 'Asia/Kolkata',
    call: {
      windowStart: '09:00',
      windowEnd: '18:00',
      retryCount: 2,
      retryBusyMinutes: 30,
      retryNotPickedMinutes: 60,
      retryFailedMinutes: 30,
      idleTimeoutWarningSeconds: 10,
      idleTimeoutEndSeconds: 15,
      maxCallLengthSeconds: 300,
    },
    concurrency: 50,
    callbackUrl: '',
    removeInvalid: true,
    transliterateNames: false,
    purpose: 'other',
    hoursAcknowledged: false,
    acceptShortfall: false,
    ...over,
  };
}

// `campaign-desk agents` as a child process against the sandbox process (real HTTP).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProcess } from '../services/api/testing/sandboxProcess.ts';
import type { SandboxProcess } from '../services/api/testing/sandboxProcess.ts';
import { API_KEY_ENV } from './agentsCommand.ts';

const cli = join(fileURLToPath(new URL('../..', import.meta.url)), 'electron', 'cli', 'main.ts');
const apiKey = 'cli-agents-key-123';
let sb: SandboxProcess;
beforeAll(async () => {
  sb = await startSandboxProcess({ apiKey, seed: 11 });
  await sb.control('POST', '/agents', { count: 55, name_prefix: 'Cli', archive_every: 50 });
});
afterAll(() => sb.stop());

const run = (args: string[], key: string | null = apiKey) => {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env[API_KEY_ENV];
  if (key !== null) env[API_KEY_ENV] = key;
  const r = spawnSync(process.execPath, [cli, 'agents', ...args], { encoding: 'utf8', env, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('campaign-desk agents', () => {
  it('lists every agent over all pages, as JSON lines, with variables and archived flags', () => {
    const r = run(['--base-url', sb.baseUrl, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { name: string; archived: boolean; variables: string[] });
    expect(rows).toHaveLength(58);
    expect(rows.find((a) => a.name === 'Loan Repayment Reminder')?.variables).toEqual([
      'callee_name',
      'loan_amount',
      'due_date',
      'language',
      'city',
    ]);
    expect(rows.filter((a) => a.archived).map((a) => a.name)).toEqual(['Cli 50']);
    const table = run(['--base-url', sb.baseUrl]);
    expect(table.code).toBe(0);
    expect(table.stdout.trim().split('\n')).toHaveLength(58);
    expect(table.stdout).toMatch(/\tCli 50\ten-IN\t1\tarchived\tcallee_name,due_date\n/);
  });

  it('says what is wrong in one line: no key, a wrong key, no base URL', () => {
    const noKey = run(['--base-url', sb.baseUrl], null);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr.trim()).toBe(
      `campaign-desk agents: set ${API_KEY_ENV} to the workspace's API key (see campaign-desk agents --help)`,
    );
    const wrong = run(['--base-url', sb.baseUrl], 'wrong-key');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim()).toBe('campaign-desk agents: Invalid credentials');
    const noUrl = run([]);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toMatch(/--base-url is required/);
    expect(run(['--api-key', 'x']).code).toBe(2);
  });
});

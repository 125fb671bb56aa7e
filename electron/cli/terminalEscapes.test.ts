// Service text never reaches the terminal with its control characters (issue 22): `campaign-desk
// agents` as a child process against a fake service on 127.0.0.1 whose agent names and error
// messages carry terminal escapes (clear the screen, set the window title, a C1 CSI).
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_ENV } from './agentsCommand.ts';

const cli = join(fileURLToPath(new URL('../..', import.meta.url)), 'electron', 'cli', 'main.ts');
const ESCAPES = '\u001b[2J\u001b]0;owned\u0007\u009b31m\u202E';
// eslint-disable-next-line no-control-regex -- the bytes this test looks for
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

let baseUrl = '';
let close: () => Promise<void> = async () => {};
beforeAll(async () => {
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.headers['x-api-key'] === 'refused') {
      res.statusCode = 400;
      res.end(JSON.stringify({ error: { code: 'invalid_parameter', message: `${ESCAPES}bad request` } }));
      return;
    }
    if (url.pathname === '/v0/agent/all') {
      res.end(JSON.stringify([{ id: 'a1', agent_display_name: `${ESCAPES}Evil agent` }]));
      return;
    }
    if (url.pathname === '/v0/agent/a1') {
      res.end(
        JSON.stringify({
          agents: {
            id: 'a1',
            agent_display_name: `${ESCAPES}Evil agent`,
            language: `en\u001b[31m`,
            agent_config: {
              custom_variables: { callee_name: 'string' },
              agent_prompt: 'Hi',
              intro_message: 'Hi',
            },
          },
        }),
      );
      return;
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ error: { message: 'Not found' } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v0`;
  close = () => new Promise((r) => server.close(() => r()));
});
afterAll(() => close());

/** The command as a child process (the fake service answers meanwhile: no spawnSync). */
function run(args: string[], key: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, [API_KEY_ENV]: key };
  const child = spawn(process.execPath, [cli, ...args], { env });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('the CLI writes service text with its controls visible', () => {
  it('an agent name with escapes: the table and the JSON lines carry no control byte', async () => {
    const table = await run(['agents', '--base-url', baseUrl], 'good-key');
    expect(table.stderr).toBe('');
    expect(table.code).toBe(0);
    expect(table.stdout).not.toMatch(CONTROL);
    expect(table.stdout).not.toContain('\u202E');
    expect(table.stdout).toBe(
      'a1\t\\x1b[2J\\x1b]0;owned\\x07\\x9b31m⟨RLO⟩Evil agent\ten\\x1b[31m\t0\tactive\tcallee_name\n',
    );
    const json = await run(['agents', '--base-url', baseUrl, '--json'], 'good-key');
    expect(json.code).toBe(0);
    expect(json.stdout).not.toMatch(CONTROL);
    // The same name, exactly, for scripts.
    expect((JSON.parse(json.stdout) as { name: string }).name).toBe(`${ESCAPES}Evil agent`);
  });

  it("the service's error message with escapes: one line on stderr, no control byte", async () => {
    const r = await run(['agents', '--base-url', baseUrl], 'refused');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(CONTROL);
    expect(r.stderr).toMatch(
      /^campaign-desk agents: Refused: .*\\x1b\[2J\\x1b\]0;owned\\x07\\x9b31m⟨RLO⟩bad request\n$/,
    );
  });
});

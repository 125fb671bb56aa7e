import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDirs } from '../electron/services/db/testing.ts';
import { bundleFiles, buildElectron } from './build-electron.ts';
import { CLI_INPUTS, cliBundle } from '../bin/cliBundle.mjs';
import { ensureContactsFile } from '../bench/lib/contactsFile.ts';
import { cleanArgs, cleanOutputs } from '../bench/lib/cleanCli.ts';
import { channelNames } from '../shared/ipc/contract.ts';

// The bundles Electron would load, checked under plain Node (no Electron binary here): the worker
// entries really run, the preload exposes only the contract, main parses and keeps natives external.
const dirs = tempDirs('desk-bundle-');
const root = fileURLToPath(new URL('..', import.meta.url));
let out: string;
beforeAll(async () => {
  // Inside the project, so the external native modules resolve from its node_modules.
  const cache = fileURLToPath(new URL('../node_modules/.cache/', import.meta.url));
  mkdirSync(cache, { recursive: true });
  out = mkdtempSync(join(cache, 'desk-bundle-'));
  await buildElectron(out);
}, 60_000);
afterAll(() => {
  rmSync(out, { recursive: true, force: true });
  dirs.cleanup();
});

const firstMessage = (worker: Worker) =>
  new Promise<Record<string, unknown>>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });

describe('Electron bundles (esbuild)', () => {
  it('writes every entry', () => {
    for (const file of bundleFiles) expect(readFileSync(join(out, file)).length, file).toBeGreaterThan(0);
  });

  it('keeps electron and the native modules external, and main.js parses', async () => {
    const main = readFileSync(join(out, 'main.js'), 'utf8');
    expect(main).toMatch(/from "electron"/);
    const all = bundleFiles.map((f) => readFileSync(join(out, f), 'utf8')).join('\n');
    expect(all).not.toContain('class SqliteError'); // better-sqlite3 not inlined
    await promisify(execFile)(process.execPath, ['--check', join(out, 'main.js')]);
  });

  it('runs the bundled database worker and its bundled checkpointer', async () => {
    const file = join(dirs.make(), 'campaign-desk.sqlite');
    const worker = new Worker(join(out, 'db-worker.js'), {
      workerData: { role: 'campaign-desk-db', file },
    });
    try {
      expect(await firstMessage(worker)).toMatchObject({ type: 'ready', schemaVersion: expect.any(Number) });
      worker.postMessage({ seq: 1, method: 'workspaces.list', args: {} });
      expect(await firstMessage(worker)).toMatchObject({
        type: 'reply',
        seq: 1,
        ok: true,
        value: { workspaces: [], activeId: null },
      });
      // The migrations sit in the WAL until db-checkpointer.js copies them into the file.
      for (let i = 0; statSync(file).size <= 4096; i++) {
        if (i > 500) throw new Error('the bundled checkpointer never copied the WAL into the file');
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await worker.terminate();
    }
  });

  it('runs the bundled sandbox worker', async () => {
    const worker = new Worker(join(out, 'sandbox-worker.js'), {
      workerData: { role: 'campaign-desk-sandbox', options: { apiKey: 'bundle-key-1' } },
    });
    try {
      const ready = (await firstMessage(worker)) as { type: string; baseUrl: string };
      expect(ready).toMatchObject({
        type: 'ready',
        baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v0$/),
      });
      const res = await fetch(`${ready.baseUrl}/workspace`, { headers: { 'X-API-KEY': 'bundle-key-1' } });
      expect(res.status).toBe(200);
      worker.postMessage({ type: 'close' });
      expect(await firstMessage(worker)).toEqual({ type: 'closed' });
    } finally {
      await worker.terminate();
    }
  });

  it('the preload exposes window.desk built from the contract, never ipcRenderer', () => {
    const exposed: Record<string, unknown> = {};
    const invoked: unknown[][] = [];
    const fakeElectron = {
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
      ipcRenderer: {
        invoke: (...args: unknown[]) => (invoked.push(args), Promise.resolve({ ok: true, value: null })),
        on: () => undefined,
        removeListener: () => undefined,
      },
    };
    const code = readFileSync(join(out, 'preload.cjs'), 'utf8');
    const module = { exports: {} };
    runInNewContext(code, {
      require: (name: string) => {
        if (name !== 'electron') throw new Error(`sandboxed preload cannot require ${name}`);
        return fakeElectron;
      },
      module,
      exports: module.exports,
      console,
    });
    expect(Object.keys(exposed)).toEqual(['desk']);
    const desk = exposed.desk as Record<string, Record<string, (r?: unknown) => Promise<unknown>>> & {
      on: unknown;
    };
    // One object per domain of the contract, plus on(): derived, so a new domain needs no edit here.
    const domains = [...new Set(channelNames.map((name) => name.split(':')[0]!))];
    expect(Object.keys(desk).sort()).toEqual([...domains, 'on'].sort());
    expect(Object.keys(desk.workspaces!).sort()).toEqual([
      'create',
      'list',
      'remove',
      'setActive',
      'test',
      'update',
    ]);
    void desk.workspaces!.setActive!({ id: 'w' });
    void desk.app!.info!();
    expect(invoked).toEqual([
      ['workspaces:set-active', { id: 'w' }],
      ['app:info', {}],
    ]);
    expect(JSON.stringify(Object.keys(desk))).not.toContain('ipcRenderer');
  });

  it('the bundled CLI cleans a file to the same bytes as the sources', async () => {
    const dir = dirs.make();
    const file = ensureContactsFile(5_000, 42, dir);
    const clean = async (script: string, name: string) => {
      const outputs = cleanOutputs(dir, name);
      await promisify(execFile)(process.execPath, [script, ...cleanArgs(file, outputs)]);
      const json = JSON.parse(readFileSync(outputs.report, 'utf8')) as Record<string, unknown>;
      return {
        upload: readFileSync(outputs.upload),
        rejects: readFileSync(outputs.rejects),
        report: { ...json, elapsed_ms: 0, outputs: null },
      };
    };
    const bundled = await clean(join(out, 'cli.js'), 'bundle');
    const source = await clean(join(root, 'electron', 'cli', 'main.ts'), 'source');
    expect(bundled.upload.length).toBeGreaterThan(100_000);
    expect(bundled.upload.equals(source.upload)).toBe(true);
    expect(bundled.rejects.equals(source.rejects)).toBe(true);
    expect(bundled.report).toEqual(source.report);
  }, 60_000);

  it('the bin runs the bundle while no source it was built from changed, the sources after', () => {
    expect(cliBundle(root, out)).toEqual({ entry: join(out, 'cli.js'), reason: null });
    const manifestPath = join(out, CLI_INPUTS);
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { builtAt: number; inputs: string[] };
    // The CLI and the engine's threads are listed, the Electron main process's own files are not.
    expect(manifest.inputs).toContain('electron/cli/main.ts');
    expect(manifest.inputs).toContain('electron/services/contacts/engine/worker.ts');
    expect(manifest.inputs).toContain('shared/domain/contacts/blockProcessor.ts');
    expect(manifest.inputs).not.toContain('electron/main/index.ts');
    expect(manifest.inputs).toContain('package-lock.json'); // an npm upgrade keeps old file dates
    try {
      // As if every source had been saved after the build.
      writeFileSync(manifestPath, JSON.stringify({ ...manifest, builtAt: 0 }));
      expect(cliBundle(root, out)).toEqual({
        entry: null,
        reason: `${manifest.inputs[0]} changed after the build`,
      });
    } finally {
      writeFileSync(manifestPath, JSON.stringify(manifest));
    }
    expect(cliBundle(root, join(out, 'nothing'))).toMatchObject({
      entry: null,
      reason: expect.stringMatching(/^no CLI bundle in .*nothing \(npm run build:electron makes it\)$/),
    });
  });
});

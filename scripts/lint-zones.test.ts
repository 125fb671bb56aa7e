// The architecture's import arrows are enforced by eslint.config.js; this proves each zone both
// refuses a wrong import and accepts a right one (a rule that never fires would pass silently).
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function importErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const cases: { file: string; wrong: string[]; right: string[] }[] = [
  {
    file: 'shared/domain/probe.ts',
    wrong: [
      "import fs from 'node:fs';",
      "import path from 'path';",
      "import { app } from 'electron';",
      "import React from 'react';",
      "import Database from 'better-sqlite3';",
      "import { createDesk } from '../../electron/services/createDesk.ts';",
      "import { startSandbox } from '../../sandbox/server.ts';",
      "import { App } from '../../renderer/src/app/App.tsx';",
    ],
    right: ["import { z } from 'zod';", "import { ok } from '../ipc/result.ts';"],
  },
  {
    file: 'renderer/src/probe.ts',
    wrong: [
      "import fs from 'node:fs';",
      "import { ipcRenderer } from 'electron';",
      "import { createDesk } from '../../electron/services/createDesk.ts';",
      "import { startSandbox } from '../../sandbox/server.ts';",
      "import Database from 'better-sqlite3';",
    ],
    right: ["import { contract } from '../../shared/ipc/contract.ts';", "import { useState } from 'react';"],
  },
  {
    file: 'sandbox/probe.ts',
    wrong: [
      "import { app } from 'electron';",
      "import { createDesk } from '../electron/services/createDesk.ts';",
      "import { App } from '../renderer/src/app/App.tsx';",
    ],
    right: ["import { historyResponseSchema } from '../shared/service/index.ts';", "import fs from 'node:fs';"],
  },
  {
    file: 'electron/services/probe.ts',
    wrong: [
      "import { app } from 'electron';",
      "import { startSandbox } from '../../sandbox/server.ts';",
      "import { App } from '../../renderer/src/app/App.tsx';",
    ],
    right: ["import { ok } from '../../shared/ipc/result.ts';", "import fs from 'node:fs';"],
  },
  {
    file: 'electron/services/sandbox/startSandbox.ts',
    wrong: ["import { app } from 'electron';"],
    right: ["import { startSandbox } from '../../../sandbox/server.ts';"],
  },
  {
    file: 'electron/main/probe.ts',
    wrong: ["import { startSandbox } from '../../sandbox/server.ts';"],
    right: ["import { app } from 'electron';", "import { createDesk } from '../services/createDesk.ts';"],
  },
];

describe('lint enforces the import arrows', () => {
  for (const { file, wrong, right } of cases) {
    for (const code of wrong)
      it(`${file} refuses: ${code}`, async () => {
        expect(await importErrors(file, `${code}\n`)).not.toEqual([]);
      });
    for (const code of right)
      it(`${file} accepts: ${code}`, async () => {
        expect(await importErrors(file, `${code}\n`)).toEqual([]);
      });
  }
});

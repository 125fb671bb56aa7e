// Proves the renderer's feature boundary (scripts/eslint/rendererFeatures.js, wired in
// eslint.config.js) as lint-zones.test.ts proves the import arrows: each place refuses a wrong
// import and accepts a right one, so a rule that never fires cannot pass.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });
const RULE = 'renderer-features/no-cross-feature-imports';

async function featureErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === RULE).map((m) => m.message);
}

const cases: { file: string; wrong: string[]; right: string[] }[] = [
  {
    file: 'renderer/src/features/calls/probe.ts',
    wrong: [
      "import { ContactsGrid } from '../contacts/ContactsGrid.tsx';",
      "export { DoNotCallPage } from '../suppression/DoNotCallPage.tsx';",
      "import '../campaigns/campaigns.css';",
      "const page = import('../campaigns/CampaignsPage.tsx');",
    ],
    right: [
      "import { formatCount } from '../../components/format.ts';",
      "import { useListAgent } from '../../shared-listAgent/listAgentStore.ts';",
      "import { WindowedTable } from './WindowedTable.tsx';",
      "import { desk } from '../../desk/desk.ts';",
    ],
  },
  {
    // A file deeper in a feature: '..' is still its own feature, '../..' another one.
    file: 'renderer/src/features/calls/review/probe.ts',
    wrong: ["import { RowCache } from '../../contacts/rowCache.ts';"],
    right: [
      "import { useCalls } from '../callsStore.ts';",
      "import { Button } from '../../../components/Button.tsx';",
    ],
  },
  {
    file: 'renderer/src/components/probe.ts',
    wrong: ["import { RowCache } from '../features/contacts/rowCache.ts';"],
    right: ["import { formatInteger } from './format.ts';"],
  },
  {
    file: 'renderer/src/shared-probe/probe.ts',
    wrong: ["import { useCalls } from '../features/calls/callsStore.ts';"],
    right: ["import { toast } from '../components/toastStore.ts';"],
  },
  {
    // The app composes the features' pages.
    file: 'renderer/src/app/probe.ts',
    wrong: [],
    right: ["import { CallsPage } from '../features/calls/CallsPage.tsx';"],
  },
];

describe('lint keeps renderer features apart', () => {
  for (const { file, wrong, right } of cases) {
    for (const code of wrong)
      it(`${file} refuses: ${code}`, async () => {
        expect(await featureErrors(file, `${code}\n`)).not.toEqual([]);
      });
    for (const code of right)
      it(`${file} accepts: ${code}`, async () => {
        expect(await featureErrors(file, `${code}\n`)).toEqual([]);
      });
  }
});

import { describe, expect, it } from 'vitest';
import { upgradeProgress } from './upgradeProgress.ts';

const recorder = (interactive: boolean) => {
  const said: string[] = [];
  return {
    said,
    io: {
      interactive,
      err: (line: string) => void said.push(`err:${line}`),
      status: (line: string | null) => void said.push(`status:${line ?? '<clear>'}`),
    },
  };
};

const at = (step: number, fraction: number | null) => ({
  step,
  steps: 2,
  version: 240 + step,
  name: `step ${step}`,
  fraction,
});

describe('the CLI upgrade line', () => {
  it('on a terminal redraws one status line in place and clears it at the end', () => {
    const { said, io } = recorder(true);
    const progress = upgradeProgress(io);
    progress.onUpgrade(at(1, null));
    progress.onUpgrade(at(2, null));
    progress.onUpgrade(at(2, 0.5));
    progress.end();
    expect(said).toEqual([
      'status:Upgrading your local data (step 1 of 2: step 1) …',
      'status:Upgrading your local data (step 2 of 2: step 2) …',
      'status:Upgrading your local data (step 2 of 2: step 2) 50% …',
      'status:<clear>',
    ]);
  });

  it('otherwise writes one stderr line per step (no fractions) and nothing when there was no upgrade', () => {
    const { said, io } = recorder(false);
    const progress = upgradeProgress(io);
    progress.onUpgrade(at(1, null));
    progress.onUpgrade(at(1, 0.5));
    progress.onUpgrade(at(2, null));
    progress.onUpgrade(at(2, 1));
    progress.end();
    expect(said).toEqual([
      'err:Upgrading your local data (step 1 of 2: step 1) …',
      'err:Upgrading your local data (step 2 of 2: step 2) …',
    ]);
    const quiet = recorder(true);
    upgradeProgress(quiet.io).end();
    expect(quiet.said).toEqual([]);
  });
});

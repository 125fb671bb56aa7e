import { describe, expect, it } from 'vitest';
import { upgradeLine, upgradePercent, upgradeStepShort, upgradeStepText } from './upgradeText.ts';

describe('upgrade text', () => {
  const step = { step: 2, steps: 4, name: 'call rank counts', fraction: null };
  it('names the step, its number and the count', () => {
    expect(upgradeStepText(step)).toBe('Upgrading your local data (step 2 of 4: call rank counts)');
    expect(upgradeLine(step)).toBe('Upgrading your local data (step 2 of 4: call rank counts) …');
    expect(upgradeLine({ ...step, fraction: 0.375 })).toBe(
      'Upgrading your local data (step 2 of 4: call rank counts) 38% …',
    );
  });
  it('gives the screen the step alone (its heading already says it upgrades)', () => {
    expect(upgradeStepShort(step)).toBe('Step 2 of 4: call rank counts');
  });
  it('counts the steps before and this step share in the whole', () => {
    expect(upgradePercent(step)).toBe(25);
    expect(upgradePercent({ ...step, fraction: 0.5 })).toBe(38);
    expect(upgradePercent({ ...step, step: 4, fraction: 1 })).toBe(100);
  });
});

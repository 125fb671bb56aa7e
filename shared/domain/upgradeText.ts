/** Where a start-up upgrade of the local database is (shared/ipc/channels/app.ts `upgrading`). */
export interface UpgradeStep {
  step: number;
  steps: number;
  name: string;
  fraction: number | null;
}

/** "Upgrading your local data (step 2 of 3: call rank counts)": the same words in the app and the CLI. */
export const upgradeStepText = (p: UpgradeStep): string =>
  `Upgrading your local data (step ${p.step} of ${p.steps}: ${p.name})`;

/** "Step 2 of 3: call rank counts": the upgrade screen's line, under its "Upgrading your local data" heading. */
export const upgradeStepShort = (p: UpgradeStep): string => `Step ${p.step} of ${p.steps}: ${p.name}`;

/** The whole upgrade done, 0–100: the steps before this one and this one's share when it says. */
export const upgradePercent = (p: UpgradeStep): number =>
  Math.round((100 * (p.step - 1 + (p.fraction ?? 0))) / p.steps);

/** One line for a terminal: the step, and how far this step is when it can say. */
export const upgradeLine = (p: UpgradeStep): string =>
  `${upgradeStepText(p)}${p.fraction === null ? '' : ` ${Math.round(p.fraction * 100)}%`} …`;

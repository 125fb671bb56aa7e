import type { ReactNode } from 'react';
import { useEffect, useState } from 'react';
import type { Startup } from '../../../shared/ipc/channels/app.ts';
import { upgradePercent, upgradeStepShort } from '../../../shared/domain/upgradeText.ts';
import { useConnection } from '../desk/connectionStore.ts';
import { desk } from '../desk/desk.ts';
import { FullPageMessage } from './FullPageMessage.tsx';

/** How far a status is: a later one never gives way to an earlier one that arrives after it. */
const order = (s: Startup): number =>
  s.state === 'upgrading' ? s.step + (s.fraction ?? 0) * 0.999 : Number.MAX_SAFE_INTEGER;

/**
 * The app once the back end has started. Before that (the local database being upgraded at
 * start-up, which can take tens of seconds) an upgrade screen with the step and a progress bar;
 * a failed upgrade says why, in the back end's words (the file and the step).
 */
export function StartupGate({ children }: { children: ReactNode }) {
  const refused = useConnection((s) => s.status.state === 'refused');
  const [startup, setStartup] = useState<Startup | null>(null);

  useEffect(() => {
    let latest: Startup | null = null;
    let live = true;
    const apply = (next: Startup) => {
      if (!live || (latest && order(next) < order(latest))) return;
      latest = next;
      setStartup(next);
    };
    const off = desk().on('app:startup-changed', apply);
    // Not answered (a refused page): the app shows why, as it always has.
    void desk()
      .app.startup()
      .then((r) => apply(r.ok ? r.value : { state: 'ready' }));
    return () => {
      live = false;
      off();
    };
  }, []);

  // The page's state for tests and scripts (useAppLifecycle.ts takes over once the app runs).
  useEffect(() => {
    if (startup?.state === 'upgrading') document.documentElement.dataset.appState = 'upgrading';
    else if (startup?.state === 'failed') document.documentElement.dataset.appState = 'error';
  }, [startup?.state]);

  if (refused || startup?.state === 'ready') return <>{children}</>;
  if (startup?.state === 'failed')
    return (
      <FullPageMessage title="Campaign Desk could not upgrade your local data">
        <p data-testid="startup-failed">{startup.message}</p>
        <p className="muted">Close Campaign Desk; your data is kept as it was before the step that failed.</p>
      </FullPageMessage>
    );
  if (startup?.state !== 'upgrading')
    return (
      <div className="loading" role="status">
        Starting…
      </div>
    );
  const text = upgradeStepShort(startup);
  const percent = upgradePercent(startup);
  return (
    <main className="full-page">
      <div className="full-page-card" data-testid="upgrade-screen">
        <h1>Upgrading your local data</h1>
        <p role="status" aria-live="polite">
          {text} …
        </p>
        <div
          className="upgrade-bar"
          role="progressbar"
          aria-label="Upgrade progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={`${percent}%: ${text}`}
        >
          <div className="upgrade-bar-fill" style={{ width: `${percent}%` }} />
        </div>
        <p className="muted">
          This happens once after an update and can take a minute on a large call history. The app opens by
          itself when it is done.
        </p>
      </div>
    </main>
  );
}

import { formatTime } from '../components/format.ts';
import { selectActiveWorkspace, useApp } from './appStore.ts';
import { describeConnectivity } from './connectivityText.ts';

/** Online/offline in words (the dot is only a helper), announced politely when it changes. */
export function ConnectivityIndicator() {
  const browserOnline = useApp((s) => s.browserOnline);
  const connectivity = useApp((s) => s.connectivity);
  const active = useApp(selectActiveWorkspace);
  const view = describeConnectivity({
    browserOnline,
    connectivity,
    workspaceName: active?.name ?? null,
    isSandbox: active?.isSandbox ?? false,
  });
  const checked = connectivity ? ` Checked at ${formatTime(connectivity.checkedAt)}.` : '';
  return (
    <div
      className={`connectivity connectivity-${view.state}`}
      role="status"
      aria-live="polite"
      title={`${view.detail}${checked}`}
    >
      <span className="connectivity-dot" aria-hidden="true" />
      <span className="connectivity-label">{view.label}</span>
      <span className="visually-hidden">: {view.detail}</span>
    </div>
  );
}

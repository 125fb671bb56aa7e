import type { Workspace } from '../../../../shared/ipc/channels/workspaces.ts';
import { Button } from '../../components/Button.tsx';
import { KeyIcon, ServerIcon } from '../../components/icons.tsx';
import { useSettings } from './settingsStore.ts';
import { TestResult } from './TestResult.tsx';

function keyStorageText(workspace: Workspace): string {
  if (!workspace.hasApiKey) return 'No API key';
  const where =
    workspace.secretStorage === 'keychain'
      ? 'API key in the OS keychain'
      : 'API key kept for this session only';
  return workspace.hasBearerToken ? `${where}, with a bearer token` : where;
}

/** One workspace in Settings: what it is, where its key lives, its last test, and its actions. */
export function WorkspaceCard({
  workspace,
  active,
  onMakeActive,
}: {
  workspace: Workspace;
  active: boolean;
  onMakeActive: () => void;
}) {
  const testing = useSettings((s) => s.testing[workspace.id] ?? false);
  const outcome = useSettings((s) => s.outcomes[workspace.id]) ?? workspace.lastTest;
  const openDialog = useSettings((s) => s.openDialog);
  const testWorkspace = useSettings((s) => s.testWorkspace);
  const headingId = `workspace-${workspace.id}-name`;
  return (
    <li className="workspace-card" aria-labelledby={headingId}>
      <div className="workspace-main">
        <div className="workspace-title-row">
          <h3 className="workspace-name" id={headingId}>
            {workspace.name}
          </h3>
          {workspace.isSandbox ? <span className="badge">Built-in</span> : null}
          {active ? <span className="badge badge-accent">Active</span> : null}
        </div>
        <dl className="workspace-facts">
          <div>
            <dt>
              <ServerIcon size={14} />
              <span className="visually-hidden">Base URL</span>
            </dt>
            <dd className="mono">{workspace.baseUrl}</dd>
          </div>
          <div>
            <dt>
              <KeyIcon size={14} />
              <span className="visually-hidden">Key</span>
            </dt>
            <dd className={workspace.secretStorage === 'session' ? 'warn-text' : undefined}>
              {keyStorageText(workspace)}
            </dd>
          </div>
        </dl>
        <div
          className="workspace-test"
          role="status"
          aria-live="polite"
          aria-label={`Connection test for ${workspace.name}`}
        >
          {testing ? (
            <span className="muted">Testing connection…</span>
          ) : outcome ? (
            <TestResult outcome={outcome} showWhen />
          ) : (
            <span className="muted">Not tested yet</span>
          )}
        </div>
      </div>
      <div className="workspace-actions">
        <Button
          size="sm"
          busy={testing}
          onClick={() => void testWorkspace(workspace.id)}
          aria-label={`Test connection to ${workspace.name}`}
        >
          Test connection
        </Button>
        {!active ? (
          <Button size="sm" variant="ghost" onClick={onMakeActive}>
            Make active<span className="visually-hidden">: {workspace.name}</span>
          </Button>
        ) : null}
        {!workspace.isSandbox ? (
          <>
            <Button
              size="sm"
              variant="ghost"
              aria-haspopup="dialog"
              onClick={() => openDialog({ kind: 'edit', id: workspace.id })}
              aria-label={`Edit ${workspace.name}`}
            >
              Edit
            </Button>
            <Button
              size="sm"
              variant="ghost"
              className="btn-danger-text"
              aria-haspopup="dialog"
              onClick={() => openDialog({ kind: 'remove', id: workspace.id })}
              aria-label={`Remove ${workspace.name}`}
            >
              Remove
            </Button>
          </>
        ) : null}
      </div>
    </li>
  );
}

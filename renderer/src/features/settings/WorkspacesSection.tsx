import { useApp } from '../../app/appStore.ts';
import { Button } from '../../components/Button.tsx';
import { PlusIcon } from '../../components/icons.tsx';
import { Notice } from '../../components/Notice.tsx';
import { toast } from '../../components/toastStore.ts';
import { RemoveWorkspaceDialog } from './RemoveWorkspaceDialog.tsx';
import { useSettings } from './settingsStore.ts';
import { WorkspaceCard } from './WorkspaceCard.tsx';
import { WorkspaceDialog } from './WorkspaceDialog.tsx';

export function WorkspacesSection() {
  const workspaces = useApp((s) => s.workspaces);
  const activeId = useApp((s) => s.activeId);
  const keychain = useApp((s) => s.info?.keychain);
  const setActive = useApp((s) => s.setActive);
  const dialog = useSettings((s) => s.dialog);
  const openDialog = useSettings((s) => s.openDialog);
  const closeDialog = useSettings((s) => s.closeDialog);
  const dialogWorkspace =
    dialog && dialog.kind !== 'add' ? (workspaces.find((w) => w.id === dialog.id) ?? null) : null;

  return (
    <section className="settings-section" aria-labelledby="workspaces-heading">
      <div className="section-header">
        <div>
          <h2 id="workspaces-heading" className="section-title">
            Workspaces
          </h2>
          <p className="section-subtitle">
            Each workspace is one account on the calling service. Its API key lives in the OS keychain and
            never reaches this window.
          </p>
        </div>
        <Button
          variant="primary"
          icon={<PlusIcon />}
          aria-haspopup="dialog"
          onClick={() => openDialog({ kind: 'add' })}
        >
          Add workspace
        </Button>
      </div>

      {keychain && !keychain.available ? (
        <Notice tone="warning" role="note">
          <p className="notice-title">{keychain.message ?? 'No OS keychain is available.'}</p>
          <p>
            Keys you add are kept in memory until Campaign Desk quits; they are never written to disk in plain
            text.
          </p>
        </Notice>
      ) : null}

      {workspaces.length === 0 ? (
        <p className="muted">No workspaces yet. Add one with its base URL and API key.</p>
      ) : (
        <ul className="workspace-list" aria-label="Workspaces">
          {workspaces.map((w) => (
            <WorkspaceCard
              key={w.id}
              workspace={w}
              active={w.id === activeId}
              onMakeActive={async () => {
                const result = await setActive(w.id);
                if (result.ok) toast.success(`“${w.name}” is now the active workspace.`);
                else toast.error(result.error.message);
              }}
            />
          ))}
        </ul>
      )}

      {dialog?.kind === 'add' ? <WorkspaceDialog workspace={null} onClose={closeDialog} /> : null}
      {dialog?.kind === 'edit' && dialogWorkspace ? (
        <WorkspaceDialog key={dialogWorkspace.id} workspace={dialogWorkspace} onClose={closeDialog} />
      ) : null}
      {dialog?.kind === 'remove' && dialogWorkspace ? (
        <RemoveWorkspaceDialog workspace={dialogWorkspace} onClose={closeDialog} />
      ) : null}
    </section>
  );
}

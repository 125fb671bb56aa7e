import { useRef, useState } from 'react';
import type { Workspace } from '../../../../shared/ipc/channels/workspaces.ts';
import { useApp } from '../../app/appStore.ts';
import { Button } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { Notice } from '../../components/Notice.tsx';
import { toast } from '../../components/toastStore.ts';
import { desk } from '../../desk/desk.ts';
import { useSettings } from './settingsStore.ts';

/** Confirm before removing: the back end cannot undo it (the stored key is deleted with it). */
export function RemoveWorkspaceDialog({ workspace, onClose }: { workspace: Workspace; onClose: () => void }) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    setBusy(true);
    const result = await desk().workspaces.remove({ id: workspace.id });
    setBusy(false);
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    useSettings.getState().forget(workspace.id);
    await useApp.getState().refreshWorkspaces();
    toast.success(`Removed “${workspace.name}”.`);
    onClose();
  };
  return (
    <Dialog
      open
      role="alertdialog"
      width="sm"
      title={`Remove ${workspace.name}?`}
      onClose={onClose}
      initialFocus={cancelRef}
      description={
        <p>
          Campaign Desk forgets this workspace and deletes its API key
          {workspace.hasBearerToken ? ' and bearer token' : ''} from{' '}
          {workspace.secretStorage === 'keychain' ? 'the OS keychain' : 'this session'}. This cannot be
          undone; to use it again you add it again with its key.
        </p>
      }
    >
      {error ? (
        <div className="dialog-body">
          <Notice tone="error" role="alert">
            <p>{error}</p>
          </Notice>
        </div>
      ) : null}
      <footer className="dialog-footer">
        <Button ref={cancelRef} onClick={onClose}>
          Cancel
        </Button>
        <Button variant="danger" busy={busy} onClick={() => void remove()}>
          Remove workspace
        </Button>
      </footer>
    </Dialog>
  );
}

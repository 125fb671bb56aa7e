import { useEffect, useState } from 'react';
import { ListTable } from '../../components/ListTable.tsx';
import type { ContactList } from '../../../../shared/ipc/channels/contacts.ts';
import { Button } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { formatBytes, formatCount, formatWhen } from '../../components/format.ts';
import { Notice } from '../../components/Notice.tsx';
import { desk } from '../../desk/desk.ts';
import { BulkProgressBar, useBulkProgress } from './BulkProgress.tsx';
import { useContacts } from '../../shared-contactList/contactsStore.ts';

/** Lists saved in this installation's database: open one (works offline) or delete it. */
export function SavedLists() {
  const lists = useContacts((s) => s.lists);
  const loaded = useContacts((s) => s.listsLoaded);
  const error = useContacts((s) => s.listsError);
  const openList = useContacts((s) => s.openList);
  const deleteList = useContacts((s) => s.deleteList);
  const [confirm, setConfirm] = useState<ContactList | null>(null);
  // A deleted list leaves the table at once; its rows go (and the file shrinks) in chunks.
  const deleting = useBulkProgress((p) => p.action === 'delete');
  const loadLists = useContacts((s) => s.loadLists);
  // A deletion cancelled in its Cancel window brings the list back.
  useEffect(
    () =>
      desk().on('contacts:bulk-progress', (p) => {
        if (p.action === 'delete' && p.state === 'cancelled') void loadLists();
      }),
    [loadLists],
  );

  return (
    <section className="panel" aria-labelledby="saved-lists-title">
      <h2 id="saved-lists-title" className="section-title">
        Saved lists
      </h2>
      {deleting ? <BulkProgressBar progress={deleting} /> : null}
      {error ? (
        <Notice tone="error" role="alert">
          <p>{error}</p>
        </Notice>
      ) : !loaded ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : lists.length === 0 ? (
        <p className="muted">No contact lists yet. Imported lists are kept on this computer.</p>
      ) : (
        <ListTable
          labelledBy="saved-lists-title"
          columns={['List', 'Rows', 'Valid', 'Invalid', 'Duplicates', 'Excluded', 'Imported']}
          actions
        >
          {lists.map((list) => (
            <tr key={list.id}>
              <th scope="row">
                <span className="list-name">{list.name}</span>
                <span className="muted list-file">
                  {list.fileName} · {formatBytes(list.fileBytes)}
                </span>
              </th>
              <td>{list.status === 'ready' ? formatCount(list.counts.rows) : 'importing…'}</td>
              <td>{formatCount(list.counts.valid)}</td>
              <td>{formatCount(list.counts.invalid)}</td>
              <td>{formatCount(list.counts.duplicates)}</td>
              <td>{formatCount(list.counts.excluded)}</td>
              <td>{formatWhen(list.createdAt)}</td>
              <td className="row-actions">
                <Button size="sm" disabled={list.status !== 'ready'} onClick={() => void openList(list.id)}>
                  Open<span className="visually-hidden"> {list.name}</span>
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  className="btn-danger-text"
                  aria-haspopup="dialog"
                  onClick={() => setConfirm(list)}
                >
                  Delete<span className="visually-hidden"> {list.name}</span>
                </Button>
              </td>
            </tr>
          ))}
        </ListTable>
      )}
      {confirm ? (
        <Dialog
          open
          role="alertdialog"
          width="sm"
          title={`Delete ${confirm.name}?`}
          onClose={() => setConfirm(null)}
          description={
            <p>
              The {formatCount(confirm.counts.rows)} rows and your fixes are removed from this computer. The
              original file is not touched.
            </p>
          }
        >
          <footer className="dialog-footer">
            <Button onClick={() => setConfirm(null)}>Keep it</Button>
            <Button
              variant="danger"
              onClick={() => {
                const id = confirm.id;
                setConfirm(null);
                void deleteList(id);
              }}
            >
              Delete list
            </Button>
          </footer>
        </Dialog>
      ) : null}
    </section>
  );
}

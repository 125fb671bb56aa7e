import { useDeferredValue, useEffect } from 'react';
import { PageHeader } from '../../app/PageHeader.tsx';
import { Button } from '../../components/Button.tsx';
import { useContacts } from '../../shared-contactList/contactsStore.ts';
import { useImportAnnouncements } from './importAnnouncements.ts';
import { ImportStart } from './ImportStart.tsx';
import { ImportProgressPanel } from './ImportProgressPanel.tsx';
import { ListView } from './ListView.tsx';
import { SavedLists } from './SavedLists.tsx';
import './contacts.css';

/** Contacts: import a CSV (cleaned in Web Workers, stored in SQLite), review, fix and export it. */
export function ContactsPage() {
  const list = useContacts((s) => s.list);
  const importing = useContacts((s) => s.importing);
  const closeList = useContacts((s) => s.closeList);
  const loadLists = useContacts((s) => s.loadLists);
  useImportAnnouncements();

  useEffect(() => {
    void loadLists();
  }, [loadLists]);

  const running = importing !== null && importing.phase !== 'done';
  // The view switches in a deferred (interruptible, time-sliced) render: a finished import or an
  // opened list mounts the whole list view (grid, summary, panels), which on a slow machine took
  // one task of 150+ ms and froze the page meanwhile. The list itself is never deferred: edits
  // show at once.
  const view = useDeferredValue(list !== null && !running ? 'list' : running ? 'import' : 'start');
  const showingList = view === 'list' && list !== null;
  const showingImport = !showingList && importing !== null && (view === 'import' || running);

  return (
    <>
      <PageHeader
        title="Contacts"
        subtitle="Import, check, fix and export contact lists on this computer, before anything is uploaded."
        actions={
          showingList || showingImport ? (
            <Button variant="ghost" onClick={closeList}>
              All lists
            </Button>
          ) : null
        }
      />
      <div className="page-body contacts">
        {showingList ? (
          <ListView list={list} />
        ) : showingImport ? (
          <ImportProgressPanel />
        ) : (
          <>
            <ImportStart />
            <SavedLists />
          </>
        )}
      </div>
    </>
  );
}

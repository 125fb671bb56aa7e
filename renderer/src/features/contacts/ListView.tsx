import { useRef } from 'react';
import type { ContactList } from '../../../../shared/ipc/channels/contacts.ts';
import { useFocusWhenLost } from '../../components/useFocusWhenLost.ts';
import { AgentPanel } from '../../shared-listAgent/AgentPanel.tsx';
import { ContactsGrid } from './ContactsGrid.tsx';
import { useContacts } from '../../shared-contactList/contactsStore.ts';
import { ExportPanel } from './ExportPanel.tsx';
import { FixActions } from './FixActions.tsx';
import { formatBytes, formatCount, formatDuration } from '../../components/format.ts';
import { ImportSettings } from './ImportSettings.tsx';
import { SummaryPanel } from './SummaryPanel.tsx';

/** One list: what it is, its summary, fixes, exports and the grid of its rows. */
export function ListView({ list }: { list: ContactList }) {
  const source = useContacts((s) => s.source);
  const editable = source !== null && source.listId === list.id;
  const titleRef = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(titleRef);
  return (
    <div className="list-view" data-list-id={list.id}>
      <section className="panel list-facts" aria-label="List">
        <h2 className="section-title" ref={titleRef} tabIndex={-1}>
          {list.name}
        </h2>
        <p className="muted">
          {list.fileName} · {formatBytes(list.fileBytes)} · {formatCount(list.counts.rows)} rows
          {list.blankRows > 0 ? ` (${formatCount(list.blankRows)} blank lines skipped)` : ''}
          {list.importMs !== null ? ` · imported in ${formatDuration(list.importMs / 1000)}` : ''}
          {list.split
            ? ` · ${list.split.workers} worker${list.split.workers === 1 ? '' : 's'} (${list.split.mode})`
            : ''}
        </p>
        {list.split?.reason ? (
          <p className="muted">One worker was used because {list.split.reason}.</p>
        ) : null}
      </section>
      <SummaryPanel list={list} />
      <div className="list-columns">
        <FixActions list={list} />
        <ExportPanel list={list} />
      </div>
      <AgentPanel list={list} />
      <ContactsGrid list={list} />
      <details className="panel" open>
        <summary className="subsection-title">File settings and variables</summary>
        <ImportSettings
          detected={list.detected}
          variables={list.variables}
          editable={editable}
          country={list.country}
        />
      </details>
    </div>
  );
}

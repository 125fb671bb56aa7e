import { useId, useState } from 'react';
import type { ContactList, ExportKind, ExportResult } from '../../../../shared/ipc/channels/contacts.ts';
import { useApp } from '../../app/appStore.ts';
import { Button } from '../../components/Button.tsx';
import { toast } from '../../components/toastStore.ts';
import { desk } from '../../desk/desk.ts';
import { download } from '../../components/download.ts';
import { formatBytes, formatCount } from '../../components/format.ts';
import { useListAgent } from '../../shared-listAgent/listAgentStore.ts';

const baseName = (name: string) =>
  name
    .replace(/[^\p{L}\p{N}._ -]+/gu, '_')
    .trim()
    .slice(0, 80) || 'contacts';

/**
 * The upload CSV (valid rows, Mobile Number first) and the rejects CSV (row, reasons, original
 * cells), written by the back end from SQLite. Electron writes to a path; the browser downloads.
 */
export function ExportPanel({ list }: { list: ContactList }) {
  const host = useApp((s) => s.info?.host ?? 'browser');
  const [busy, setBusy] = useState<ExportKind | null>(null);
  const [last, setLast] = useState<ExportResult | null>(null);
  const [folder, setFolder] = useState('~/Downloads');
  const id = useId();
  // With an agent chosen for this list, the upload carries only its mapped columns, and the answer
  // holds the launch's variables_map.
  const forList = useListAgent((s) => s.listId === list.id && s.agent !== null);
  const agentName = useListAgent((s) => (forList ? (s.agent?.name ?? null) : null));
  const agentId = useListAgent((s) => (forList ? s.agentId : null));
  const versionId = useListAgent((s) => (forList ? s.versionId : null));

  const exportFile = async (kind: ExportKind) => {
    setBusy(kind);
    const fileName = `${baseName(list.name)}-${kind}.csv`;
    const forAgent = kind === 'upload' && agentId ? { agentId, ...(versionId ? { versionId } : {}) } : {};
    const result =
      host === 'electron'
        ? await desk().contacts.export({
            listId: list.id,
            kind,
            path: `${folder.replace(/\/+$/, '')}/${fileName}`,
            ...forAgent,
          })
        : await desk().contacts.export({ listId: list.id, kind, download: true, ...forAgent });
    setBusy(null);
    if (!result.ok) {
      toast.error(result.error.message);
      return;
    }
    setLast(result.value);
    if (result.value.downloadUrl) download(result.value.downloadUrl, result.value.fileName);
    else toast.success(`Saved ${result.value.path ?? result.value.fileName}`);
  };

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="subsection-title">
        Export
      </h3>
      {host === 'electron' ? (
        <div className="field">
          <label className="field-label" htmlFor={`${id}-folder`}>
            Save to folder
          </label>
          <input
            id={`${id}-folder`}
            className="input"
            value={folder}
            onChange={(e) => setFolder(e.target.value)}
            spellCheck={false}
          />
        </div>
      ) : null}
      <div className="action-row">
        <Button
          variant="primary"
          busy={busy === 'upload'}
          disabled={busy !== null}
          onClick={() => void exportFile('upload')}
        >
          {host === 'electron' ? 'Save' : 'Download'} upload CSV ({formatCount(list.counts.upload)} rows)
        </Button>
        <Button busy={busy === 'rejects'} disabled={busy !== null} onClick={() => void exportFile('rejects')}>
          {host === 'electron' ? 'Save' : 'Download'} rejects CSV ({formatCount(list.counts.rejects)} rows)
        </Button>
      </div>
      {last ? (
        <p className="muted" role="status">
          {last.kind === 'upload' ? 'Upload' : 'Rejects'} file: {formatCount(last.rows)} rows,{' '}
          {formatBytes(last.bytes)}
          {last.path ? ` — ${last.path}` : ` — ${last.fileName}`}
        </p>
      ) : null}
      {last?.variablesMap ? (
        <p className="muted" data-testid="variables-map">
          variables_map for the launch: <code>{JSON.stringify(last.variablesMap)}</code>
        </p>
      ) : null}
      <p className="field-hint">
        {agentName ? `Upload for ${agentName}: only the columns its variables are mapped to. ` : ''}
        Upload: UTF-8, Mobile Number first in E.164, valid rows only; formula cells lose their leading = + - @
        and hidden direction controls are removed. Rejects: spreadsheet row, reasons and the original cells
        (formulas neutralised, direction controls shown as ⟨RLO⟩). Excluded rows are in neither.
      </p>
    </section>
  );
}

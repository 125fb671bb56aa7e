import { useState } from 'react';
import { useApp } from '../../../app/appStore.ts';
import { Button } from '../../../components/Button.tsx';
import { download } from '../../../components/download.ts';
import { toast } from '../../../components/toastStore.ts';
import { desk } from '../../../desk/desk.ts';
import { formatBytes, formatCount } from '../../../components/format.ts';
import { Labelled } from '../Labelled.tsx';

/** The campaign's QA report as CSV: saved to a folder (Electron) or downloaded (browser). */
export function QaReportButton({ bulkListId }: { bulkListId: string }) {
  const host = useApp((s) => s.info?.host ?? 'browser');
  const [folder, setFolder] = useState('~/Downloads');
  const [busy, setBusy] = useState(false);
  const write = async () => {
    setBusy(true);
    const fileName = `qa-report-${new Date().toISOString().slice(0, 10)}.csv`;
    const result =
      host === 'electron'
        ? await desk().review.report({ bulkListId, path: `${folder.replace(/\/+$/, '')}/${fileName}` })
        : await desk().review.report({ bulkListId, download: true });
    setBusy(false);
    if (!result.ok) {
      toast.error(result.error.message);
      return;
    }
    if (result.value.downloadUrl) download(result.value.downloadUrl, result.value.fileName);
    toast.success(
      `QA report of ${formatCount(result.value.rows)} calls (${formatBytes(result.value.bytes)})${result.value.path ? ` saved to ${result.value.path}` : ''}`,
    );
  };
  return (
    <>
      {host === 'electron' ? (
        <Labelled className="calls-row" label="Save report to folder">
          {(id) => (
            <input
              id={id}
              className="input"
              value={folder}
              onChange={(e) => setFolder(e.target.value)}
              spellCheck={false}
            />
          )}
        </Labelled>
      ) : null}
      <Button size="sm" busy={busy} onClick={() => void write()}>
        QA report CSV
      </Button>
    </>
  );
}

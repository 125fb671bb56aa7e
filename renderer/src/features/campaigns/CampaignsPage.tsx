import { useEffect, useId, useState } from 'react';
import { ListTable } from '../../components/ListTable.tsx';
import type { z } from 'zod';
import type { campaignRowSchema } from '../../../../shared/ipc/channels/campaigns.ts';
import { PageHeader } from '../../app/PageHeader.tsx';
import { useApp } from '../../app/appStore.ts';
import { Button } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { formatCount, formatWhen } from '../../components/format.ts';
import { Notice } from '../../components/Notice.tsx';
import { desk } from '../../desk/desk.ts';
import { CampaignBuilder } from './CampaignBuilder.tsx';
import { useCampaigns } from './campaignsStore.ts';
import { campaignRowNames } from './rowNames.ts';
import { CampaignTimeline } from './CampaignTimeline.tsx';
import { LaunchQueue } from './LaunchQueue.tsx';
import { LiveCampaigns } from '../../shared-liveCampaigns/LiveCampaigns.tsx';
import { campaignStatusText } from './launchText.ts';
import './campaigns.css';

type CampaignRow = z.infer<typeof campaignRowSchema>;

const count = (n: number | null) => (n === null ? '—' : formatCount(n));

/** Cancels a campaign's remaining calls once the operator has confirmed it. */
function TerminateDialog({ row, onClose }: { row: CampaignRow; onClose: () => void }) {
  const loadList = useCampaigns((s) => s.loadList);
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);
  const terminate = async () => {
    const campaignId = row.campaignId ?? row.serviceId;
    if (!campaignId) return;
    setBusy(true);
    const result = await desk().campaigns.terminate({ campaignId });
    setBusy(false);
    setAnswer(
      result.ok ? { ok: true, text: result.value.message } : { ok: false, text: result.error.message },
    );
    void loadList(true);
  };
  return (
    <Dialog open role="alertdialog" width="sm" title={`Terminate ${row.name}?`} onClose={onClose}>
      <div className="dialog-body">
        <p>
          The calls of this campaign not yet placed are cancelled. Calls already made stay in the history.
        </p>
        {answer ? (
          <p role="status" className={answer.ok ? undefined : 'field-error'}>
            {answer.text}
          </p>
        ) : null}
      </div>
      <div className="dialog-footer">
        <Button onClick={onClose}>{answer ? 'Close' : 'Keep calling'}</Button>
        {answer?.ok ? null : (
          <Button variant="danger" busy={busy} onClick={() => void terminate()}>
            Terminate remaining calls
          </Button>
        )}
      </div>
    </Dialog>
  );
}

function CampaignsTable() {
  const id = useId();
  const list = useCampaigns((s) => s.list);
  const listError = useCampaigns((s) => s.listError);
  const loadList = useCampaigns((s) => s.loadList);
  const openTimeline = useCampaigns((s) => s.openTimeline);
  const openCampaign = useCampaigns((s) => s.openCampaign);
  const timelineError = useCampaigns((s) => s.timelineError);
  const resolve = useCampaigns((s) => s.resolve);
  const [terminating, setTerminating] = useState<CampaignRow | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const rows = list?.campaigns ?? [];
  // Names that repeat get their start date (two "November" campaigns are told apart); "starts" or
  // "started" as of when the list was opened.
  const [openedAt] = useState(Date.now);
  const names = campaignRowNames(rows, openedAt);

  return (
    <section className="panel" aria-labelledby={`${id}-title`} data-testid="campaigns-list">
      <div className="section-header">
        <h2 id={`${id}-title`} className="section-title">
          Campaigns
        </h2>
        <Button
          size="sm"
          busy={refreshing}
          onClick={() => {
            setRefreshing(true);
            void loadList(true).finally(() => setRefreshing(false));
          }}
        >
          Refresh campaigns
        </Button>
      </div>
      <p className="field-hint" role="status">
        {listError ??
          list?.lastError ??
          (list?.syncedAt
            ? `Service campaigns read ${formatWhen(list.syncedAt)}`
            : 'Service campaigns not read yet')}
      </p>
      {timelineError ? <p className="field-error">{timelineError}</p> : null}
      {rows.length === 0 ? (
        <p className="muted">No campaign yet.</p>
      ) : (
        <ListTable
          labelledBy={`${id}-title`}
          columns={['Campaign', 'Status', 'Registered', 'Completed', 'Total', 'Updated']}
          actions
        >
          {rows.map((r, i) => (
            <tr
              key={r.launchId ?? r.campaignId ?? r.name}
              data-campaign={r.name}
              data-launch={r.launchId ?? undefined}
            >
              <th scope="row" data-col="name">
                {names[i]}
                {r.launchId ? null : <span className="muted"> (service)</span>}
              </th>
              <td data-col="status">{campaignStatusText(r.status)}</td>
              <td data-col="registered">{count(r.registered)}</td>
              <td data-col="completed">{count(r.completed)}</td>
              <td data-col="total">{count(r.total)}</td>
              <td>{r.updatedAt ? formatWhen(r.updatedAt) : '—'}</td>
              <td className="action-row">
                {r.launchId ? (
                  <Button size="sm" onClick={() => void openCampaign(r.launchId!)}>
                    Open {names[i]}
                  </Button>
                ) : null}
                {r.launchId ? (
                  <Button size="sm" aria-haspopup="dialog" onClick={() => void openTimeline(r.launchId!)}>
                    Timeline of {names[i]}
                  </Button>
                ) : null}
                {r.launchId && r.status === 'needs-decision' ? (
                  <>
                    <Button size="sm" onClick={() => void resolve(r.launchId!, 'retry')}>
                      Start {names[i]} again
                    </Button>
                    <Button size="sm" onClick={() => void resolve(r.launchId!, 'mark-started')}>
                      Mark {names[i]} as started
                    </Button>
                  </>
                ) : null}
                {r.canTerminate ? (
                  <Button size="sm" variant="danger" aria-haspopup="dialog" onClick={() => setTerminating(r)}>
                    Terminate {names[i]}
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
        </ListTable>
      )}
      {terminating ? <TerminateDialog row={terminating} onClose={() => setTerminating(null)} /> : null}
      <CampaignTimeline />
    </section>
  );
}

function Drafts() {
  const id = useId();
  const drafts = useCampaigns((s) => s.drafts);
  const openDraft = useCampaigns((s) => s.openDraft);
  const deleteDraft = useCampaigns((s) => s.deleteDraft);
  if (drafts.length === 0) return null;
  return (
    <section className="panel" aria-labelledby={`${id}-title`} data-testid="campaign-drafts">
      <h2 id={`${id}-title`} className="section-title">
        Drafts
      </h2>
      <ul className="queue-list">
        {drafts.map((d) => {
          const name = d.settings.name || 'Untitled campaign';
          return (
            <li key={d.id} className="queue-item">
              <span>
                <strong>{name}</strong> · edited {formatWhen(d.updatedAt)}
              </span>
              <span className="action-row">
                <Button size="sm" onClick={() => openDraft(d.id)}>
                  Open {name}
                </Button>
                <Button size="sm" variant="ghost" onClick={() => void deleteDraft(d.id)}>
                  Delete {name}
                </Button>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function CampaignsPage() {
  const view = useCampaigns((s) => s.view);
  const load = useCampaigns((s) => s.load);
  const newCampaign = useCampaigns((s) => s.newCampaign);
  const progress = useCampaigns((s) => s.progress);
  const workspace = useApp((s) => s.activeId);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    load().catch((e: unknown) => setLoadError(e instanceof Error ? e.message : String(e)));
  }, [load, workspace]);
  useEffect(() => desk().on('campaigns:launch-progress', progress), [progress]);

  return (
    <>
      <PageHeader
        title="Campaigns"
        subtitle="Build a campaign from a cleaned list, check its plan, and launch it once."
        actions={
          view === 'list' ? (
            <Button variant="primary" onClick={newCampaign}>
              New campaign
            </Button>
          ) : null
        }
      />
      {view === 'builder' ? (
        <CampaignBuilder />
      ) : (
        <div className="page-body campaigns">
          {loadError ? (
            <Notice tone="error" role="alert">
              <p>{loadError}</p>
            </Notice>
          ) : null}
          <LaunchQueue />
          <LiveCampaigns />
          <Drafts />
          <CampaignsTable />
        </div>
      )}
    </>
  );
}

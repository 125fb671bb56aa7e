import { useEffect } from 'react';
import { useApp } from '../../app/appStore.ts';
import { PageHeader } from '../../app/PageHeader.tsx';
import { desk } from '../../desk/desk.ts';
import { CallDetailView } from './CallDetailView.tsx';
import { CallsFilters } from './CallsFilters.tsx';
import { CallsTable } from './CallsTable.tsx';
import type { CallsTab } from './callsStore.ts';
import { useCalls } from './callsStore.ts';
import { CampaignResults } from './CampaignResults.tsx';
import { ChartsPanel } from './ChartsPanel.tsx';
import { LiveCampaigns } from '../../shared-liveCampaigns/LiveCampaigns.tsx';
import { SyncPanel } from './SyncPanel.tsx';
import { Tabs } from './Tabs.tsx';
import { ReviewQueue } from './review/ReviewQueue.tsx';
import { OffersNotice } from '../../shared-doNotCall/OffersNotice.tsx';
import '../../styles/calls.css';

const TABS: Array<{ key: CallsTab; label: string }> = [
  { key: 'calls', label: 'All calls' },
  { key: 'results', label: 'Campaign results' },
  { key: 'charts', label: 'Charts' },
  { key: 'review', label: 'Review queue' },
];

/** Calls: sync the history into SQLite, then review it offline (table, search, detail, results, charts). */
export function CallsPage() {
  const tab = useCalls((s) => s.tab);
  const setTab = useCalls((s) => s.setTab);
  const openCallId = useCalls((s) => s.openCallId);
  const activeId = useApp((s) => s.activeId);

  // Sync progress and stored changes arrive as events; a workspace switch reloads everything.
  useEffect(() => {
    const calls = useCalls.getState();
    void calls.loadSync();
    void calls.loadMenus();
    calls.changed();
    const offProgress = desk().on('calls:sync-progress', (status) => {
      if (status.workspaceId === useApp.getState().activeId) useCalls.getState().applySync(status);
    });
    const offChanged = desk().on('calls:changed', (change) => {
      if (change.workspaceId === useApp.getState().activeId) useCalls.getState().changed();
    });
    return () => {
      offProgress();
      offChanged();
    };
  }, [activeId]);

  return (
    <>
      <PageHeader
        title="Calls"
        subtitle="Every call of this workspace, its transcript and recording, kept on this computer for offline review."
      />
      <div className="page-body calls">
        <SyncPanel />
        <OffersNotice />
        <LiveCampaigns />
        <Tabs label="Calls views" tabs={TABS} current={tab} onChange={setTab}>
          {openCallId ? (
            <CallDetailView callId={openCallId} />
          ) : tab === 'calls' ? (
            <>
              <CallsFilters />
              <CallsTable />
            </>
          ) : tab === 'review' ? (
            <ReviewQueue />
          ) : tab === 'results' ? (
            <CampaignResults />
          ) : (
            <ChartsPanel />
          )}
        </Tabs>
      </div>
    </>
  );
}

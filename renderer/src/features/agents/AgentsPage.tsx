import { useEffect, useId, useState } from 'react';
import { useApp } from '../../app/appStore.ts';
import { PageHeader } from '../../app/PageHeader.tsx';
import { Button } from '../../components/Button.tsx';
import { Notice } from '../../components/Notice.tsx';
import { toast } from '../../components/toastStore.ts';
import { desk } from '../../desk/desk.ts';
import { AgentDetailView } from './AgentDetailView.tsx';
import { AgentList } from './AgentList.tsx';
import { useAgentsLibrary } from '../../shared-agents/agentsLibraryStore.ts';
import { DraftAgentDialog } from './DraftAgentDialog.tsx';
import { syncLine } from './syncText.ts';
import '../../shared-agents/agents.css';

/** Agents: the active workspace's agents from the local library (offline too), a detail, local drafts. */
export function AgentsPage() {
  const id = useId();
  const activeWorkspace = useApp((s) => s.activeId);
  const load = useAgentsLibrary((s) => s.load);
  const setSync = useAgentsLibrary((s) => s.setSync);
  const refresh = useAgentsLibrary((s) => s.refresh);
  const refreshing = useAgentsLibrary((s) => s.refreshing);
  const sync = useAgentsLibrary((s) => s.sync);
  const syncReadAt = useAgentsLibrary((s) => s.syncReadAt);
  const error = useAgentsLibrary((s) => s.error);
  const search = useAgentsLibrary((s) => s.search);
  const setSearch = useAgentsLibrary((s) => s.setSearch);
  const [drafting, setDrafting] = useState(false);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    void load();
  }, [load, activeWorkspace]);
  useEffect(
    () =>
      desk().on('agents:sync-changed', ({ sync: next }) => {
        setSync(next);
        if (!next.running) void load();
      }),
    [load, setSync],
  );
  // The age keeps counting while the page is open.
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);

  const line = syncLine(sync, Math.max(0, (now - syncReadAt) / 1000));
  const onRefresh = async () => {
    const result = await refresh();
    if (result.ok) toast.success('Agents synced');
  };

  return (
    <>
      <PageHeader
        title="Agents"
        subtitle="The workspace’s agents, kept on this computer: prompts, variables, versions and webhooks, offline too."
        actions={
          <>
            <Button onClick={() => setDrafting(true)}>New local draft</Button>
            <Button
              variant="primary"
              busy={refreshing || (sync?.running ?? false)}
              onClick={() => void onRefresh()}
            >
              Refresh
            </Button>
          </>
        }
      />
      <div className="page-body agents">
        <div className={`sync-line sync-${line.tone}`} role="status" data-testid="agents-sync">
          {line.text}
        </div>
        {error ? (
          <Notice tone="error" title="The agent library could not be read" role="alert">
            <p>{error}</p>
          </Notice>
        ) : null}
        <div className="agents-layout">
          <section className="agents-list-pane" aria-labelledby={`${id}-list-title`}>
            <h2 id={`${id}-list-title`} className="subsection-title">
              Agent list
            </h2>
            <div className="field">
              <label className="field-label" htmlFor={`${id}-search`}>
                Search agents
              </label>
              <input
                id={`${id}-search`}
                className="input"
                type="search"
                value={search}
                placeholder="Name"
                onChange={(e) => setSearch(e.target.value)}
                autoComplete="off"
                spellCheck={false}
              />
            </div>
            <AgentList />
          </section>
          <AgentDetailView />
        </div>
      </div>
      {drafting ? <DraftAgentDialog agent={null} onClose={() => setDrafting(false)} /> : null}
    </>
  );
}

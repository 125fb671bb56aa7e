import { useAgentsLibrary } from '../../shared-agents/agentsLibraryStore.ts';

/** The library as a list of buttons: name, then what marks it (archived, local draft, unsaved edit). */
export function AgentList() {
  const agents = useAgentsLibrary((s) => s.agents);
  const loaded = useAgentsLibrary((s) => s.loaded);
  const search = useAgentsLibrary((s) => s.search);
  const selectedId = useAgentsLibrary((s) => s.selectedId);
  const select = useAgentsLibrary((s) => s.select);
  const syncing = useAgentsLibrary((s) => s.sync?.running ?? false);

  if (!loaded) return <p className="muted">Loading agents…</p>;
  if (agents.length === 0)
    return (
      <p className="muted" data-testid="agents-empty">
        {search.trim()
          ? `No agent’s name contains “${search.trim()}”.`
          : syncing
            ? 'Syncing the workspace’s agents…'
            : 'No agents on this computer yet. Refresh to sync them from the service, or make a local draft from a prompt.'}
      </p>
    );

  return (
    <ul className="agent-list" aria-label="Agents">
      {agents.map((a) => {
        const marks = [
          a.archived ? 'archived' : null,
          a.isLocalDraft ? 'local draft' : null,
          a.hasSubscriptionsDraft ? 'unsaved webhooks' : null,
        ].filter(Boolean);
        const facts = [
          a.language,
          a.versions > 1 ? `${a.versions} versions` : null,
          `${a.variables.length} variable${a.variables.length === 1 ? '' : 's'}`,
        ].filter(Boolean);
        return (
          <li key={a.id}>
            <button
              type="button"
              className={['agent-item', a.archived ? 'is-archived' : ''].filter(Boolean).join(' ')}
              aria-current={selectedId === a.id ? 'true' : undefined}
              data-agent-id={a.id}
              onClick={() => void select(a.id)}
            >
              <span className="agent-item-name">{a.name}</span>
              {marks.length ? (
                <span className="agent-item-marks">
                  {marks.map((m) => (
                    <span key={m} className={`badge ${m === 'local draft' ? 'badge-accent' : ''}`}>
                      {m}
                    </span>
                  ))}
                </span>
              ) : null}
              <span className="agent-item-facts">{facts.join(' · ')}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

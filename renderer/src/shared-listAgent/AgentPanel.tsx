import { useEffect, useId } from 'react';
import type { ContactList } from '../../../shared/ipc/channels/contacts.ts';
import { useApp } from '../app/appStore.ts';
import { desk } from '../desk/desk.ts';
import { useAgentsLibrary } from '../shared-agents/agentsLibraryStore.ts';
import { useAgents } from './agentsStore.ts';
import { useContacts } from '../shared-contactList/contactsStore.ts';
import { LintPanel } from './LintPanel.tsx';
import { useListAgent } from './listAgentStore.ts';
import { PromptPreviewPane } from './PromptPreviewPane.tsx';
import '../shared-agents/agents.css';

const SOURCE_TEXT: Record<string, string> = {
  phone: 'the list’s phone column',
  manual: 'chosen by you',
  exact: 'same name',
  similar: 'similar name',
  'last-list': 'as in your last list',
  none: 'not mapped',
};

/**
 * The agent this list is prepared for (from the local library, offline too): its version, the
 * variable → column mapping (auto-mapped, editable, remembered per agent), the lint and the preview.
 */
export function AgentPanel({ list }: { list: ContactList }) {
  const id = useId();
  const activeWorkspace = useApp((s) => s.activeId);
  const agents = useAgentsLibrary((s) => s.agents);
  const loadAgents = useAgentsLibrary((s) => s.load);
  const librarySearch = useAgentsLibrary((s) => s.search);
  const setLibrarySearch = useAgentsLibrary((s) => s.setSearch);
  const state = useListAgent();
  const { open, choose, setColumn, refresh, showRow } = state;
  const filter = useContacts((s) => s.filter);

  // A sync (start, reconnect, Refresh) may bring new agents.
  useEffect(
    () =>
      desk().on('agents:sync-changed', ({ sync }) => {
        if (!sync.running) void loadAgents();
      }),
    [loadAgents],
  );
  useEffect(() => {
    // The picker lists every agent: a search typed in the Agents section must not hide some here.
    if (librarySearch) setLibrarySearch('');
    else void loadAgents();
  }, [loadAgents, activeWorkspace, librarySearch, setLibrarySearch]);
  useEffect(() => {
    // A list imported for an agent (the import settings' Agent) starts with that agent here.
    const source = useContacts.getState().source;
    const chosen = useAgents.getState().chosen;
    const imported =
      source && source.listId === list.id && chosen?.file === source.file ? chosen.agentId : null;
    void open(list.id, imported);
  }, [open, list.id]);
  // Counts and the preview follow every change of the list (edits, exclusions, undo)…
  useEffect(() => {
    void refresh();
  }, [refresh, list]);
  // …and the preview follows the grid's filter.
  useEffect(() => {
    if (useListAgent.getState().previewFilter !== filter) void showRow(0, filter);
  }, [showRow, filter]);

  const agent = state.agent;
  const versions = agent?.agentVersions ?? [];
  const mapping = state.mapping;

  return (
    <section className="panel agent-panel" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="subsection-title">
        Agent and prompt variables
      </h3>
      <div className="settings-grid">
        <div className="field">
          <label className="field-label" htmlFor={`${id}-agent`}>
            Agent for this list
          </label>
          <select
            id={`${id}-agent`}
            className="select"
            value={state.agentId ?? ''}
            onChange={(e) => void choose(e.target.value || null)}
            aria-describedby={`${id}-agent-hint`}
          >
            <option value="">No agent</option>
            {agents.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
                {a.archived ? ' (archived)' : ''}
                {a.isLocalDraft ? ' (local draft)' : ''}
              </option>
            ))}
          </select>
          <p className="field-hint" id={`${id}-agent-hint`}>
            {agents.length === 0
              ? 'No agents on this computer yet: refresh them in Agents, or make a local draft there.'
              : 'From the agent library on this computer (works offline).'}
          </p>
        </div>
        {agent && versions.length > 1 ? (
          <div className="field">
            <label className="field-label" htmlFor={`${id}-version`}>
              Version
            </label>
            <select
              id={`${id}-version`}
              className="select"
              value={state.versionId ?? ''}
              onChange={(e) => void choose(agent.id, e.target.value || null)}
            >
              {versions.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.label}
                  {v.isActive ? ' (active)' : ''}
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </div>
      {agent?.isLocalDraft ? (
        <p className="field-hint">
          A local draft: good for checking this list; a campaign needs the synced agent.
        </p>
      ) : null}
      {state.error ? (
        <p className="field-error" role="alert">
          {state.error}
        </p>
      ) : null}

      {mapping ? (
        <div className="agent-panel-columns">
          <table
            className="mapping-table"
            aria-labelledby={`${id}-mapping-title`}
            data-testid="agent-mapping"
          >
            <caption id={`${id}-mapping-title`} className="mapping-caption">
              Variables and their columns
            </caption>
            <thead>
              <tr>
                <th scope="col">Variable</th>
                <th scope="col" id={`${id}-column`}>
                  Column
                </th>
                <th scope="col">Matched by</th>
              </tr>
            </thead>
            <tbody>
              {mapping.mapping.map((m) => (
                <tr key={m.variable} data-variable={m.variable}>
                  <th scope="row" className="mono" id={`${id}-v-${m.variable}`}>
                    {m.variable}
                  </th>
                  <td>
                    {m.source === 'phone' ? (
                      <span>{m.column}</span>
                    ) : (
                      <select
                        className="select"
                        aria-labelledby={`${id}-v-${m.variable} ${id}-column`}
                        value={m.column}
                        disabled={state.busy}
                        onChange={(e) => void setColumn(m.variable, e.target.value)}
                      >
                        <option value="">— no column —</option>
                        {mapping.columns.map((c, k) => (
                          <option key={`${k}-${c}`} value={c}>
                            {c || `(column ${k + 1})`}
                          </option>
                        ))}
                      </select>
                    )}
                  </td>
                  <td className={m.source === 'none' ? 'warn-text' : 'muted'}>{SOURCE_TEXT[m.source]}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <LintPanel list={list} />
        </div>
      ) : state.agentId && state.busy ? (
        <p className="muted">Mapping the agent’s variables to the list’s columns…</p>
      ) : null}
      {mapping ? <PromptPreviewPane /> : null}
    </section>
  );
}

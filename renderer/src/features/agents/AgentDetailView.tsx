import { useId, useState } from 'react';
import { splitPrompt } from '../../../../shared/domain/template.ts';
import type { AgentDetail, AgentVariable } from '../../../../shared/ipc/channels/agents.ts';
import { Button } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { Notice } from '../../components/Notice.tsx';
import { toast } from '../../components/toastStore.ts';
import { desk } from '../../desk/desk.ts';
import { useAgentsLibrary } from '../../shared-agents/agentsLibraryStore.ts';
import { DraftAgentDialog } from './DraftAgentDialog.tsx';
import { PromptPieces, PromptView } from './PromptView.tsx';
import { SubscriptionsEditor } from './SubscriptionsEditor.tsx';

/** The agent on screen: facts, versions, the highlighted prompt, its variables, its webhooks. */
export function AgentDetailView() {
  const id = useId();
  const detail = useAgentsLibrary((s) => s.detail);
  const selectedId = useAgentsLibrary((s) => s.selectedId);
  const detailError = useAgentsLibrary((s) => s.detailError);

  if (!selectedId)
    return (
      <section className="agent-detail agent-detail-empty" aria-label="Agent">
        <p className="muted">Choose an agent to see its prompt, variables, versions and webhooks.</p>
      </section>
    );
  if (detailError)
    return (
      <section className="agent-detail" aria-label="Agent">
        <Notice tone="error" title="This agent could not be read" role="alert">
          <p>{detailError}</p>
        </Notice>
      </section>
    );
  if (!detail || detail.id !== selectedId)
    return (
      <section className="agent-detail" aria-label="Agent" aria-busy="true">
        <p className="muted">Loading the agent…</p>
      </section>
    );
  return <AgentDetailBody key={detail.id} detail={detail} titleId={`${id}-title`} />;
}

function AgentDetailBody({ detail, titleId }: { detail: AgentDetail; titleId: string }) {
  const versions = detail.agentVersions;
  const active = versions.find((v) => v.isActive) ?? versions[0] ?? null;
  const [versionId, setVersionId] = useState(active?.id ?? '');
  const version = versions.find((v) => v.id === versionId) ?? active;
  const [editingDraft, setEditingDraft] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const select = useAgentsLibrary((s) => s.select);
  const load = useAgentsLibrary((s) => s.load);

  const facts: Array<[string, string]> = [
    ['Language', detail.language ?? 'Not given'],
    ['Voice', detail.voice ?? 'Not given'],
    ...(detail.agentType ? ([['Type', detail.agentType]] as Array<[string, string]>) : []),
    ['Agent id', detail.id],
  ];

  const deleteDraft = async () => {
    const result = await desk().agents.deleteDraft({ agentId: detail.id });
    setDeleting(false);
    if (!result.ok) {
      toast.error(result.error.message);
      return;
    }
    toast.success(`Local draft “${detail.name}” deleted`);
    await select(null);
    await load();
  };

  return (
    <section className="agent-detail" aria-labelledby={titleId} data-agent-id={detail.id}>
      <header className="agent-detail-header">
        <h2 id={titleId} className="section-title" tabIndex={-1}>
          {detail.name}
        </h2>
        <div className="agent-item-marks">
          {detail.archived ? <span className="badge">archived</span> : null}
          {detail.isLocalDraft ? <span className="badge badge-accent">local draft</span> : null}
        </div>
      </header>
      {detail.archived ? (
        <Notice tone="warning" role="note" title="Archived">
          <p>This agent is archived on the service. It is kept here for reference.</p>
        </Notice>
      ) : null}
      {detail.isLocalDraft ? (
        <Notice tone="info" role="note" title="Local draft">
          <p>
            Made on this computer from a pasted prompt, to prepare contact lists before the first sync. It is
            not on the calling service, so no campaign or call can be launched with it.
          </p>
          <div className="action-row">
            <Button size="sm" onClick={() => setEditingDraft(true)}>
              Edit draft
            </Button>
            <Button size="sm" variant="ghost" className="btn-danger-text" onClick={() => setDeleting(true)}>
              Delete draft
            </Button>
          </div>
        </Notice>
      ) : null}

      <dl className="agent-facts">
        {facts.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd className={k === 'Agent id' ? 'mono' : undefined}>{v}</dd>
          </div>
        ))}
      </dl>

      {versions.length > 0 ? (
        <section className="agent-block" aria-labelledby={`${titleId}-versions`}>
          <h3 id={`${titleId}-versions`} className="subsection-title">
            Versions
          </h3>
          <div className="version-list" role="radiogroup" aria-labelledby={`${titleId}-versions`}>
            {versions.map((v) => (
              <div key={v.id}>
                <label className="version-choice">
                  <input
                    type="radio"
                    name={`${titleId}-version`}
                    value={v.id}
                    checked={version?.id === v.id}
                    onChange={() => setVersionId(v.id)}
                  />
                  <span>{v.label}</span>
                  {v.isActive ? <span className="badge badge-accent">active</span> : null}
                  {v.description && v.description !== v.label ? (
                    <span className="muted"> — {v.description}</span>
                  ) : null}
                </label>
              </div>
            ))}
          </div>
        </section>
      ) : null}

      {version ? (
        <>
          <section className="agent-block" aria-labelledby={`${titleId}-prompt`}>
            <h3 id={`${titleId}-prompt`} className="subsection-title">
              Prompt{versions.length > 1 ? ` (${version.label}${version.isActive ? ', active' : ''})` : ''}
            </h3>
            {detail.introMessage ? (
              <p className="agent-intro">
                <span className="muted">Opening line: </span>
                <PromptPieces pieces={splitPrompt(detail.introMessage)} />
              </p>
            ) : null}
            <PromptView pieces={version.pieces} label={`Prompt of ${detail.name}`} />
          </section>
          <VariablesTable variables={version.variables} titleId={`${titleId}-variables`} />
        </>
      ) : null}

      {detail.isLocalDraft ? null : <SubscriptionsEditor key={detail.id} agent={detail} />}

      {editingDraft ? <DraftAgentDialog agent={detail} onClose={() => setEditingDraft(false)} /> : null}
      <Dialog
        open={deleting}
        role="alertdialog"
        width="sm"
        title={`Delete “${detail.name}”?`}
        description="The local draft is removed from this computer. Contact lists keep their columns."
        onClose={() => setDeleting(false)}
      >
        <div className="dialog-footer">
          <Button onClick={() => setDeleting(false)}>Cancel</Button>
          <Button variant="danger" onClick={() => void deleteDraft()}>
            Delete draft
          </Button>
        </div>
      </Dialog>
    </section>
  );
}

function VariablesTable({ variables, titleId }: { variables: readonly AgentVariable[]; titleId: string }) {
  return (
    <section className="agent-block" aria-labelledby={titleId}>
      <h3 id={titleId} className="subsection-title">
        Variables
      </h3>
      <table className="mapping-table variables-table" aria-labelledby={titleId}>
        <thead>
          <tr>
            <th scope="col">Variable</th>
            <th scope="col">Kind</th>
            <th scope="col">Where it occurs</th>
          </tr>
        </thead>
        <tbody>
          {variables.map((v) => (
            <tr key={v.name} data-variable={v.name}>
              <th scope="row" className="mono">
                {v.name}
              </th>
              <td>
                {v.builtIn
                  ? 'Always present (from the contact list)'
                  : v.declared
                    ? 'Declared by the agent'
                    : 'Used in the prompt'}
              </td>
              <td>
                {v.occurrences.length === 0 ? (
                  <span className="muted">Not used in the prompt</span>
                ) : (
                  <ul className="occurrence-list">
                    {v.occurrences.map((o, i) => (
                      <li key={i}>
                        <span className="occurrence-where">
                          {o.section ? `${o.section}, line ${o.line}` : `Line ${o.line}`}
                        </span>
                        <span className="occurrence-excerpt muted">{o.excerpt}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

import { useId, useState } from 'react';
import type { AgentDetail } from '../../../../shared/ipc/channels/agents.ts';
import { hrefFor } from '../../app/routes.ts';
import { Button } from '../../components/Button.tsx';
import { formatWhen } from '../../components/format.ts';
import { Notice } from '../../components/Notice.tsx';
import { toast } from '../../components/toastStore.ts';
import { desk } from '../../desk/desk.ts';
import { useAgentsLibrary } from '../../shared-agents/agentsLibraryStore.ts';
import { SubscriptionDialog } from './SubscriptionDialog.tsx';
import type { EditSubscription } from './subscriptionForm.ts';
import {
  emptySubscription,
  eventLabel,
  fromView,
  locateField,
  maskValue,
  toInputs,
} from './subscriptionForm.ts';

type Outcome = {
  tone: 'info' | 'warning' | 'error';
  title: string;
  text: string;
  /** The fix is a workspace setting (a bearer token): offer the way there. */
  toSettings?: boolean;
} | null;

const startingList = (agent: AgentDetail): EditSubscription[] =>
  (agent.subscriptionsDraft?.subscriptions ?? agent.subscriptions).map(fromView);

/**
 * An agent's event subscriptions: list, add, edit, remove, then Save (PATCH /agent/v1 in the back
 * end). Works from the cached agent offline; a save that cannot reach the service is kept as a
 * draft by the back end (it survives a restart) and shown here with the reason.
 */
export function SubscriptionsEditor({ agent }: { agent: AgentDetail }) {
  const id = useId();
  const applyDetail = useAgentsLibrary((s) => s.applyDetail);
  const load = useAgentsLibrary((s) => s.load);
  const [list, setList] = useState<EditSubscription[]>(() => startingList(agent));
  const [dirty, setDirty] = useState(false);
  const [editing, setEditing] = useState<{ index: number | null; sub: EditSubscription } | null>(null);
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const change = (next: EditSubscription[]) => {
    setList(next);
    setDirty(true);
    setOutcome(null);
  };
  const reset = (next: AgentDetail) => {
    setList(startingList(next));
    setDirty(false);
  };

  const save = async () => {
    setSaving(true);
    const result = await desk().agents.saveSubscriptions({
      agentId: agent.id,
      subscriptions: toInputs(list),
    });
    setSaving(false);
    if (!result.ok) {
      const at = locateField(result.error.field);
      setOutcome({
        tone: 'error',
        title: 'Not saved',
        text: at ? `Subscription ${at.index + 1}: ${result.error.message}` : result.error.message,
        toSettings: result.error.code === 'unauthorized',
      });
      // A refused save may have been kept as a draft: the list and the detail say so.
      void load();
      return;
    }
    applyDetail(result.value.agent);
    reset(result.value.agent);
    if (result.value.outcome === 'saved') {
      setOutcome({ tone: 'info', title: 'Saved', text: result.value.message });
      toast.success('Event subscriptions saved');
    } else {
      setOutcome({ tone: 'warning', title: 'Kept as a draft', text: result.value.message });
    }
  };

  const discardDraft = async () => {
    const result = await desk().agents.discardSubscriptionsDraft({ agentId: agent.id });
    if (!result.ok) {
      toast.error(result.error.message);
      return;
    }
    applyDetail(result.value.agent);
    reset(result.value.agent);
    setOutcome(null);
    toast.success('Draft discarded');
  };

  const draft = agent.subscriptionsDraft;
  return (
    <section className="agent-block" aria-labelledby={`${id}-title`} data-testid="subscriptions">
      <div className="section-header">
        <div>
          <h3 id={`${id}-title`} className="subsection-title">
            Event subscriptions
          </h3>
          <p className="field-hint">Webhooks the service calls for this agent’s calls.</p>
        </div>
        <Button size="sm" onClick={() => setEditing({ index: null, sub: emptySubscription() })}>
          Add subscription
        </Button>
      </div>

      {draft && !dirty ? (
        <Notice tone="warning" role="note" title="Unsaved draft">
          <p>
            {draft.reason} Kept on this computer since {formatWhen(draft.savedAt)}; Save sends it to the
            service.
          </p>
          <div>
            <Button size="sm" variant="ghost" onClick={() => void discardDraft()}>
              Discard draft
            </Button>
          </div>
        </Notice>
      ) : null}

      {list.length === 0 ? (
        <p className="muted" data-testid="subscriptions-empty">
          No event subscriptions.
        </p>
      ) : (
        <ol className="subscription-list" aria-label="Subscriptions">
          {list.map((s, i) => (
            <li key={i} className="subscription-item" aria-label={`Subscription ${i + 1}: ${s.callbackUrl}`}>
              <div className="subscription-main">
                <p className="subscription-url">
                  <span className="badge">{s.method}</span> <span className="mono">{s.callbackUrl}</span>
                </p>
                <p className="subscription-events">{s.eventTypes.map(eventLabel).join(', ')}</p>
                {s.headers.length ? (
                  <ul className="subscription-headers" aria-label={`Headers of subscription ${i + 1}`}>
                    {s.headers.map((h, j) => (
                      <li key={j} className="mono">
                        {h.name}: {maskValue(h)}
                        <span className="visually-hidden"> (value hidden)</span>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </div>
              <div className="row-actions">
                <Button size="sm" variant="ghost" onClick={() => setEditing({ index: i, sub: s })}>
                  Edit<span className="visually-hidden"> subscription {i + 1}</span>
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  className="btn-danger-text"
                  onClick={() => change(list.filter((_, j) => j !== i))}
                >
                  Remove<span className="visually-hidden"> subscription {i + 1}</span>
                </Button>
              </div>
            </li>
          ))}
        </ol>
      )}

      <div className="action-row">
        <Button variant="primary" busy={saving} disabled={!dirty && !draft} onClick={() => void save()}>
          Save subscriptions
        </Button>
        {dirty ? (
          <>
            <Button variant="ghost" onClick={() => reset(agent)}>
              Revert changes
            </Button>
            <span className="warn-text">Unsaved changes</span>
          </>
        ) : null}
      </div>
      <div role="status" aria-live="polite" data-testid="subscriptions-outcome">
        {outcome ? (
          <Notice tone={outcome.tone} title={outcome.title}>
            <p>{outcome.text}</p>
            {outcome.toSettings ? (
              <p>
                <a href={hrefFor('settings')}>Open Settings → Workspaces</a>
              </p>
            ) : null}
          </Notice>
        ) : null}
      </div>

      {editing ? (
        <SubscriptionDialog
          title={editing.index === null ? 'Add subscription' : `Edit subscription ${editing.index + 1}`}
          initial={editing.sub}
          onClose={() => setEditing(null)}
          onDone={(sub) => {
            const index = editing.index;
            change(index === null ? [...list, sub] : list.map((s, j) => (j === index ? sub : s)));
            setEditing(null);
          }}
        />
      ) : null}
    </section>
  );
}

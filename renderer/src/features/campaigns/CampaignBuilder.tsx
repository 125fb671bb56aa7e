import { useEffect, useId, useRef, useState } from 'react';
import type { ContactList } from '../../../../shared/ipc/channels/contacts.ts';
import { Button } from '../../components/Button.tsx';
import { Notice } from '../../components/Notice.tsx';
import { desk } from '../../desk/desk.ts';
import { AgentPanel } from '../../shared-listAgent/AgentPanel.tsx';
import { formatCount } from '../../components/format.ts';
import { useListAgent } from '../../shared-listAgent/listAgentStore.ts';
import { launchBlockers, launchNotes, planBlockers } from './blockers.ts';
import { EmptyVariables } from '../../shared-listAgent/EmptyVariables.tsx';
import { useCampaigns } from './campaignsStore.ts';
import { TimelineEntries } from './CampaignTimeline.tsx';
import { LaunchConfirmation, overlapText } from './LaunchConfirmation.tsx';
import { LaunchProgress } from './LaunchProgress.tsx';
import { campaignStateText } from './launchText.ts';
import { PlanView } from './PlanView.tsx';
import { SettingsForm } from './SettingsForm.tsx';
import { labelFor } from './settingsForm.ts';
import { TestCallPanel } from './TestCallPanel.tsx';

/** Keeps the draft's agent, version and mapping in step with the agents issue's panel. */
function useAgentChoice(list: ContactList | null) {
  const settings = useCampaigns((s) => s.settings);
  const update = useCampaigns((s) => s.update);
  const la = useListAgent();

  // Reopening a draft: its agent is chosen in the panel (after the panel opened the list).
  useEffect(() => {
    if (!list) return;
    const { settings: s } = useCampaigns.getState();
    const state = useListAgent.getState();
    if (s.agentId && state.listId === list.id && state.agentId !== s.agentId) {
      void state.choose(s.agentId, s.versionId);
    }
  }, [list]);

  const mapping = la.mapping;
  useEffect(() => {
    if (!list || la.listId !== list.id || la.busy) return;
    const next = {
      agentId: la.agentId,
      versionId: la.versionId,
      mapping: Object.fromEntries(
        (mapping?.mapping ?? []).filter((m) => m.column !== '').map((m) => [m.variable, m.column]),
      ),
    };
    const current = { agentId: settings.agentId, versionId: settings.versionId, mapping: settings.mapping };
    if (JSON.stringify(next) !== JSON.stringify(current)) update(next);
  }, [list, la.listId, la.agentId, la.versionId, la.busy, mapping, settings, update]);
}

export function CampaignBuilder() {
  const id = useId();
  const settings = useCampaigns((s) => s.settings);
  const update = useCampaigns((s) => s.update);
  const errors = useCampaigns((s) => s.errors);
  const checked = useCampaigns((s) => s.checked);
  const plan = useCampaigns((s) => s.plan);
  const planError = useCampaigns((s) => s.planError);
  const validate = useCampaigns((s) => s.validate);
  const loadPlan = useCampaigns((s) => s.loadPlan);
  const launch = useCampaigns((s) => s.launch);
  const launching = useCampaigns((s) => s.launching);
  const launchError = useCampaigns((s) => s.launchError);
  const busy = useCampaigns((s) => s.busy);
  const confirm = useCampaigns((s) => s.confirm);
  const resolve = useCampaigns((s) => s.resolve);
  const closeBuilder = useCampaigns((s) => s.closeBuilder);
  const readOnly = useCampaigns((s) => s.readOnly);
  const settingsMissing = useCampaigns((s) => s.settingsMissing);
  const entries = useCampaigns((s) => s.entries);
  const overlaps = useCampaigns((s) => s.overlaps);
  const confirmation = useCampaigns((s) => s.confirmation);
  const startConfirmed = useCampaigns((s) => s.startConfirmed);
  const cancelConfirmation = useCampaigns((s) => s.cancelConfirmation);
  const duplicate = useCampaigns((s) => s.duplicate);
  const agent = useListAgent((s) => s.agent);
  const lint = useListAgent((s) => s.lint);
  const [lists, setLists] = useState<ContactList[] | null>(null);
  const [listsError, setListsError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  useEffect(() => {
    void desk()
      .contacts.lists({})
      .then((r) => {
        if (r.ok) setLists(r.value.lists.filter((l) => l.status === 'ready'));
        else setListsError(r.error.message);
      });
  }, []);
  const list = lists?.find((l) => l.id === settings.listId) ?? null;
  useAgentChoice(list);

  // The confirmation cancelled: focus back on Launch (it was busy, so disabled, while the dialog opened).
  const launchRef = useRef<HTMLButtonElement>(null);
  const confirmationWasOpen = useRef(false);
  useEffect(() => {
    if (confirmationWasOpen.current && !confirmation) launchRef.current?.focus();
    confirmationWasOpen.current = confirmation !== null;
  }, [confirmation]);

  // The checked plan's refusals (credits, calls that do not fit) disable Launch with their reason.
  const blockers = [
    ...launchBlockers(settings, agent, settings.listId === null ? null : lint),
    ...planBlockers(checked && errors.length === 0 ? plan : null, settings.acceptShortfall),
  ];
  const notes = launchNotes(settings, settings.listId === null ? null : lint);
  // A launched campaign (not refused) is shown read-only: it launches once.
  const launched = readOnly || (launching !== null && launching.state !== 'failed');
  const check = async () => {
    setChecking(true);
    try {
      if (await validate()) await loadPlan();
    } finally {
      setChecking(false);
    }
  };

  return (
    <div className="page-body campaign-builder">
      <div className="action-row">
        <Button onClick={closeBuilder}>Back to campaigns</Button>
        <span className="field-hint">Saved on this computer as you edit.</span>
      </div>

      {launching ? (
        <section className="panel" aria-labelledby={`${id}-campaign-title`} data-testid="campaign-view">
          <h2 id={`${id}-campaign-title`} className="section-title">
            Campaign {launching.name}
          </h2>
          <p data-testid="campaign-state">
            <strong>{campaignStateText(launching)}</strong>
            {launching.serviceId ? ` · service id ${launching.serviceId}` : ''}
          </p>
          {launched ? (
            <Notice tone="info" role="note">
              <p>
                This campaign was launched: its settings are shown read-only and it is not launched again. To
                call its contacts again, duplicate it as a new campaign.
              </p>
            </Notice>
          ) : (
            <Notice tone="warning" role="note">
              <p>The service refused this launch: correct the settings and launch it again.</p>
            </Notice>
          )}
          {launched && launching.draftId ? (
            <div className="action-row">
              <Button onClick={() => void duplicate(launching.id)}>Duplicate as new campaign</Button>
            </div>
          ) : null}
          {readOnly ? (
            <>
              <h3 className="subsection-title">Timeline</h3>
              <TimelineEntries entries={entries} />
            </>
          ) : null}
        </section>
      ) : null}

      {overlaps && overlaps.contacts > 0 && !launched ? (
        <Notice tone="warning" role="note">
          <p data-testid="overlap-warning">{overlapText(overlaps)}.</p>
        </Notice>
      ) : null}

      {settingsMissing ? (
        <Notice tone="info" role="note">
          <p>
            This campaign was launched from the command line (or by an older version): its builder settings
            were not kept.
          </p>
        </Notice>
      ) : null}
      <fieldset className="plain-fieldset" role="presentation" disabled={launched} hidden={settingsMissing}>
        <section className="panel" aria-labelledby={`${id}-list-title`}>
          <h2 id={`${id}-list-title`} className="section-title">
            {launching ? 'Settings' : 'New campaign'}
          </h2>
          <div className="field">
            <label className="field-label" htmlFor={`${id}-list`}>
              Contact list
            </label>
            <select
              id={`${id}-list`}
              className="select"
              value={settings.listId ?? ''}
              onChange={(e) => update({ listId: e.target.value ? Number(e.target.value) : null })}
            >
              <option value="">— choose a list —</option>
              {(lists ?? []).map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name} ({formatCount(l.counts.valid)} valid)
                </option>
              ))}
            </select>
            <p className="field-hint">
              {listsError ??
                (lists && lists.length === 0
                  ? 'No contact list yet: import one in Contacts first.'
                  : 'Lists imported and cleaned in Contacts.')}
            </p>
          </div>
        </section>

        {list ? <AgentPanel key={list.id} list={list} /> : null}

        <SettingsForm />
      </fieldset>

      <section className="panel" aria-labelledby={`${id}-plan-title`}>
        <h3 id={`${id}-plan-title`} className="subsection-title">
          Plan
        </h3>
        <Button onClick={() => void check()} busy={checking}>
          Check settings and plan
        </Button>
        {checked && errors.length > 0 ? (
          <Notice tone="error" role="alert" title="Fix these settings first (nothing was sent):">
            <ul className="error-summary" data-testid="settings-errors">
              {errors.map((e) => (
                <li key={`${e.field}-${e.message}`} data-field={e.field}>
                  {labelFor(e.field)}: {e.message}
                </li>
              ))}
            </ul>
          </Notice>
        ) : null}
        {planError ? <p className="field-error">{planError}</p> : null}
        {plan && checked && errors.length === 0 ? <PlanView plan={plan} /> : null}
      </section>

      <section className="panel" aria-labelledby={`${id}-launch-title`}>
        <h3 id={`${id}-launch-title`} className="subsection-title">
          Launch
        </h3>
        {blockers.length > 0 ? (
          <div id={`${id}-blockers`} data-testid="launch-blockers">
            <p className="warn-text">Launch is not possible yet:</p>
            <ul className="lint-list">
              {blockers.map((b) => (
                <li key={b}>{b}</li>
              ))}
            </ul>
          </div>
        ) : null}
        {notes.length > 0 ? (
          <ul className="lint-list" data-testid="launch-notes">
            {notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        ) : null}
        {list ? <EmptyVariables list={list} filters={false} /> : null}
        {launched ? (
          <p className="muted">Launched: a campaign launches once.</p>
        ) : (
          <Button
            ref={launchRef}
            variant="primary"
            busy={busy}
            disabled={blockers.length > 0}
            aria-haspopup="dialog"
            aria-describedby={blockers.length > 0 ? `${id}-blockers` : undefined}
            onClick={() => void launch()}
          >
            Launch campaign
          </Button>
        )}
        {confirmation ? (
          <LaunchConfirmation
            summary={confirmation}
            busy={busy}
            onConfirm={() => void startConfirmed()}
            onCancel={cancelConfirmation}
          />
        ) : null}
        {launchError ? (
          <p className="field-error" role="alert">
            {launchError}
          </p>
        ) : null}
        {launching ? (
          <>
            <LaunchProgress launch={launching} />
            {launching.state === 'needs-decision' ? (
              <div className="action-row">
                <span>The service could not say whether it started: check its campaigns, then</span>
                <Button onClick={() => void resolve(launching.id, 'retry')}>
                  Start {launching.name} again
                </Button>
                <Button onClick={() => void resolve(launching.id, 'mark-started')}>
                  Mark {launching.name} as started
                </Button>
              </div>
            ) : null}
            {launching.state === 'queued' ? (
              <div className="action-row">
                <span>Queued: it goes out when you confirm it.</span>
                <Button variant="primary" onClick={() => void confirm(launching.id)}>
                  Send {launching.name} now
                </Button>
              </div>
            ) : null}
          </>
        ) : null}
      </section>

      {launched ? null : <TestCallPanel />}
    </div>
  );
}

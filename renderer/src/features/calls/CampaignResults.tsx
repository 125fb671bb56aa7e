import { useEffect, useMemo, useState } from 'react';
import type {
  CampaignOutcome,
  CampaignResultRow,
  OutcomeCounts,
} from '../../../../shared/ipc/channels/calls.ts';
import { CAMPAIGN_OUTCOMES } from '../../../../shared/ipc/channels/calls.ts';
import { Button } from '../../components/Button.tsx';
import { toast } from '../../components/toastStore.ts';
import { DoNotCallButton } from '../../shared-doNotCall/DoNotCallButton.tsx';
import { PAGE_ROWS, WindowCache } from '../../components/windowCache.ts';
import { desk } from '../../desk/desk.ts';
import { useContacts } from '../../shared-contactList/contactsStore.ts';
import { formatCount, formatDateTime } from '../../components/format.ts';
import { statusText, subStatusText } from '../../../../shared/domain/callOutcome.ts';
import { formatClock } from './callFormat.ts';
import { OUTCOME_LABELS, OutcomeBadge } from './callStatus.tsx';
import { useCalls } from './callsStore.ts';
import type { TableColumn } from './WindowedTable.tsx';
import { WindowedTable } from './WindowedTable.tsx';
import { Labelled } from './Labelled.tsx';
import { campaignLabel } from './campaignNames.ts';
import { useCampaignLabels } from './useCampaignLabels.ts';

const ROW_HEIGHT = 34;
/** What operators usually call again. */
const FOLLOW_UP_DEFAULT: CampaignOutcome[] = ['no_answer', 'busy', 'voicemail'];

interface ResultsHead {
  listId: number;
  listName: string;
  counts: OutcomeCounts;
  total: number;
}

/**
 * Campaign results: every contact row of a launched list with its latest call's outcome. The
 * chosen outcomes filter the table and become a new contact list for a follow-up in one click.
 */
export function CampaignResults() {
  const campaigns = useCalls((s) => s.campaigns);
  const labels = useCampaignLabels();
  const bulkListId = useCalls((s) => s.resultsCampaign);
  const setCampaign = useCalls((s) => s.setResultsCampaign);
  const version = useCalls((s) => s.version);
  const openCall = useCalls((s) => s.openCall);
  const launched = campaigns.filter((c) => c.listId !== null);
  const [chosen, setChosen] = useState<CampaignOutcome[]>(FOLLOW_UP_DEFAULT);
  const [head, setHead] = useState<{ key: string; value: ResultsHead } | null>(null);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ listId: number; name: string; rows: number } | null>(null);
  const [name, setName] = useState('');
  const key = `${bulkListId}|${chosen.join(',')}`;

  const cache = useMemo(() => {
    if (!bulkListId) return null;
    const outcomes = CAMPAIGN_OUTCOMES.filter((o) => chosen.includes(o));
    const queryKey = `${bulkListId}|${chosen.join(',')}`;
    return new WindowCache<CampaignResultRow>(
      async (offset, limit) => {
        const result = await desk().calls.campaignResults({ bulkListId, outcomes, offset, limit });
        if (result.ok) {
          const { listId, listName, counts, total } = result.value;
          setHead({ key: queryKey, value: { listId, listName, counts, total } });
        }
        return result;
      },
      (r) => r.row,
    );
  }, [bulkListId, chosen]);
  useEffect(() => {
    if (!cache) return;
    cache.setVersion(version);
    cache.ensure(0, PAGE_ROWS - 1);
  }, [cache, version]);
  const current = head?.key === key ? head.value : null;

  // A new campaign starts with a fresh name and no "created" note (state that follows a prop).
  const [seenCampaign, setSeenCampaign] = useState(bulkListId);
  if (seenCampaign !== bulkListId) {
    setSeenCampaign(bulkListId);
    setCreated(null);
    setName('');
  }
  const suggested = current ? `${current.listName} follow-up` : '';

  const toggle = (outcome: CampaignOutcome, on: boolean) =>
    setChosen((list) => (on ? [...list, outcome] : list.filter((o) => o !== outcome)));

  const createList = async (
    outcomes: CampaignOutcome[] = CAMPAIGN_OUTCOMES.filter((o) => chosen.includes(o)),
    listName = name.trim() || suggested,
  ) => {
    if (!bulkListId) return null;
    setCreating(true);
    const result = await desk().calls.followUpList({ bulkListId, outcomes, name: listName });
    setCreating(false);
    if (!result.ok) {
      toast.error(result.error.message);
      return null;
    }
    setCreated({ listId: result.value.list.id, name: result.value.list.name, rows: result.value.rows });
    toast.success(
      `Created the list “${result.value.list.name}” with ${formatCount(result.value.rows)} contacts`,
    );
    return result.value.list.id;
  };

  /** The rows the service refused as a new list (same agent mapping), opened to fix them and send again. */
  const fixRefused = async () => {
    if (!current) return;
    const id = await createList(['refused'], `${current.listName} refused rows`);
    if (id !== null) await openInContacts(id);
  };

  const openInContacts = async (listId: number) => {
    await useContacts.getState().openList(listId);
    window.location.hash = '#/contacts';
  };

  const columns: Array<TableColumn<CampaignResultRow>> = [
    { key: 'row', label: 'Row', width: 70, numeric: true, render: (r) => <span>{r.row}</span> },
    {
      key: 'phone',
      label: 'Number',
      width: 150,
      render: (r) => <span className="mono">{r.phone ?? '—'}</span>,
    },
    { key: 'outcome', label: 'Outcome', width: 200, render: (r) => <OutcomeBadge value={r.outcome} /> },
    {
      key: 'status',
      label: 'Status',
      width: 260,
      render: (r) =>
        r.status === null ? (
          <span className="muted">—</span>
        ) : (
          <span>
            {statusText(r.status)}
            {r.subStatus ? ` · ${subStatusText(r.subStatus)}` : ''}
          </span>
        ),
    },
    {
      key: 'when',
      label: 'Called',
      width: 190,
      render: (r) =>
        r.calledAt ? (
          <span>{formatDateTime(r.calledAt)}</span>
        ) : (
          <span className="muted">{r.callId ? 'Not dialled' : '—'}</span>
        ),
    },
    {
      key: 'duration',
      label: 'Duration',
      width: 90,
      numeric: true,
      render: (r) => <span>{r.callDuration === null ? '—' : formatClock(r.callDuration)}</span>,
    },
    { key: 'calls', label: 'Calls', width: 70, numeric: true, render: (r) => <span>{r.calls}</span> },
    { key: 'cells', label: 'Contact', width: 360, render: (r) => <span>{r.cells.join(' · ')}</span> },
  ];

  if (launched.length === 0) {
    return (
      <section className="panel" aria-labelledby="results-title">
        <h2 id="results-title" className="calls-title">
          Campaign results
        </h2>
        <p className="muted">
          No launched campaign on this computer yet. Results appear here for every contact list launched as a
          campaign, once its calls are synced.
        </p>
      </section>
    );
  }

  return (
    <section className="panel" aria-labelledby="results-title">
      <div className="calls-row">
        <h2 id="results-title" className="calls-title">
          Campaign results
        </h2>
        <Labelled className="calls-row" label="Campaign">
          {(id) => (
            <select
              id={id}
              className="select"
              value={bulkListId ?? ''}
              onChange={(e) => setCampaign(e.target.value || null)}
            >
              {launched.map((c) => (
                <option key={c.bulkListId} value={c.bulkListId}>
                  {campaignLabel(labels, c.bulkListId)} ({formatCount(c.calls)} calls)
                </option>
              ))}
            </select>
          )}
        </Labelled>
      </div>
      <fieldset className="outcome-choices">
        <legend>Outcomes (shown below, and in a follow-up list)</legend>
        {CAMPAIGN_OUTCOMES.map((o) => (
          <label key={o}>
            <input
              type="checkbox"
              checked={chosen.includes(o)}
              onChange={(e) => toggle(o, e.target.checked)}
            />
            <span>
              {OUTCOME_LABELS[o]} (
              <span data-outcome={o}>{current ? formatCount(current.counts[o]) : '…'}</span>)
            </span>
          </label>
        ))}
      </fieldset>
      <div className="calls-row">
        <span className="muted" role="status" data-testid="results-total">
          {current ? `${formatCount(current.total)} contacts with these outcomes` : 'Loading…'}
        </span>
        <Labelled className="calls-row" label="New list name">
          {(id) => (
            <input
              id={id}
              className="input"
              value={name}
              placeholder={suggested}
              onChange={(e) => setName(e.target.value)}
            />
          )}
        </Labelled>
        <Button
          variant="primary"
          busy={creating}
          disabled={chosen.length === 0 || !current || current.total === 0}
          onClick={() => void createList()}
        >
          Create follow-up list{current ? ` (${formatCount(current.total)} contacts)` : ''}
        </Button>
        {bulkListId && chosen.length > 0 && current && current.total > 0 ? (
          <DoNotCallButton
            key={`${bulkListId}:${chosen.join(',')}`}
            target={{ bulkListId, outcomes: CAMPAIGN_OUTCOMES.filter((o) => chosen.includes(o)) }}
            label={`Do not call these again (${formatCount(current.total)})`}
          />
        ) : null}
        {current && current.counts.refused > 0 ? (
          <Button busy={creating} onClick={() => void fixRefused()}>
            Fix and send refused rows ({formatCount(current.counts.refused)})
          </Button>
        ) : null}
        {created ? (
          <Button variant="ghost" onClick={() => void openInContacts(created.listId)}>
            Open “{created.name}” in Contacts
          </Button>
        ) : null}
      </div>
      {created ? (
        <p role="status" data-testid="follow-up-created">
          Created the list “{created.name}” with {formatCount(created.rows)} contacts.
        </p>
      ) : null}
      {cache ? (
        <WindowedTable
          label="Campaign results"
          cache={cache}
          total={current?.total ?? 0}
          columns={columns}
          rowHeight={ROW_HEIGHT}
          version={version}
          rowKey={(r) => String(r.row)}
          onOpen={(r) => {
            if (r.callId) openCall(r.callId);
          }}
          help="Arrow keys move; Enter opens the row's latest call."
        />
      ) : null}
    </section>
  );
}

import { useMemo, useState } from 'react';
import type { CallSortKey, CallSummary, SnippetPart } from '../../../../shared/ipc/channels/calls.ts';
import { useApp } from '../../app/appStore.ts';
import { Button } from '../../components/Button.tsx';
import { download } from '../../components/download.ts';
import { toast } from '../../components/toastStore.ts';
import { desk } from '../../desk/desk.ts';
import { formatBytes, formatCost, formatCount, formatDateTime } from '../../components/format.ts';
import { subStatusText } from '../../../../shared/domain/callOutcome.ts';
import { formatClock, humanize, shownText } from './callFormat.ts';
import { OutcomeBadge, StatusBadge } from './callStatus.tsx';
import { useCalls } from './callsStore.ts';
import { useCallsWindow } from './useCallsWindow.ts';
import type { TableColumn } from './WindowedTable.tsx';
import { WindowedTable } from './WindowedTable.tsx';
import { Labelled } from './Labelled.tsx';
import { campaignLabel } from './campaignNames.ts';
import { useCampaignLabels } from './useCampaignLabels.ts';

const ROW_HEIGHT = 34;
const LEAD_CHARS = 24;

/** A one-line cell shows the first hit: the text before it is cut to its last few words. */
function leadToHit(parts: SnippetPart[]): SnippetPart[] {
  const [first, ...rest] = parts;
  if (!first || first.hit || first.text.length <= LEAD_CHARS) return parts;
  return [{ text: `…${first.text.slice(-LEAD_CHARS).replace(/^\S*\s/, '')}`, hit: false }, ...rest];
}

/** Every stored call matching the filters, a window at a time; click or Enter opens one. */
export function CallsTable() {
  const labels = useCampaignLabels();
  const filter = useCalls((s) => s.filter);
  const sort = useCalls((s) => s.sort);
  const setSort = useCalls((s) => s.setSort);
  const version = useCalls((s) => s.version);
  const openCall = useCalls((s) => s.openCall);
  const host = useApp((s) => s.info?.host ?? 'browser');
  const [exporting, setExporting] = useState(false);
  const [folder, setFolder] = useState('~/Downloads');
  const { cache, total } = useCallsWindow(filter, sort, version);
  const searching = Boolean(filter.search);

  const columns = useMemo(() => {
    const sortable = (by: CallSortKey) => ({
      sorted:
        sort.by === by
          ? sort.dir === 'asc'
            ? ('ascending' as const)
            : ('descending' as const)
          : ('none' as const),
      toggle: () =>
        setSort({
          by,
          dir:
            sort.by === by
              ? sort.dir === 'asc'
                ? 'desc'
                : 'asc'
              : by === 'name' || by === 'status'
                ? 'asc'
                : 'desc',
        }),
    });
    const list: Array<TableColumn<CallSummary>> = [
      {
        // The time of a call is when it was dialled; a call still waiting (or never placed) says so.
        key: 'time',
        label: 'Time',
        width: 190,
        render: (c) =>
          c.attemptedAt ? (
            <span data-attempted={c.attemptedAt}>{formatDateTime(c.attemptedAt)}</span>
          ) : (
            <span className="muted">Not dialled</span>
          ),
        sort: sortable('attempted_at'),
      },
      {
        key: 'name',
        label: 'Name',
        width: 170,
        render: (c) => <span>{shownText(c.name)}</span>,
        sort: sortable('name'),
      },
      {
        key: 'number',
        label: 'Number',
        width: 150,
        render: (c) => <span className="mono">{shownText(c.toNumber)}</span>,
      },
      {
        key: 'outcome',
        label: 'Outcome',
        width: 190,
        render: (c) => <OutcomeBadge value={c.outcome} />,
      },
      {
        key: 'status',
        label: 'Status',
        width: 130,
        render: (c) => <StatusBadge value={c.status} />,
        sort: sortable('status'),
      },
      {
        key: 'sub',
        label: 'Sub-status',
        width: 230,
        render: (c) => <span title={c.subStatus ?? undefined}>{subStatusText(c.subStatus)}</span>,
      },
      {
        key: 'duration',
        label: 'Duration',
        width: 100,
        numeric: true,
        render: (c) => <span>{c.callDuration === null ? '—' : formatClock(c.callDuration)}</span>,
        sort: sortable('call_duration'),
      },
      {
        key: 'cost',
        label: 'Cost',
        width: 90,
        numeric: true,
        render: (c) => <span>{formatCost(c.callCost)}</span>,
        sort: sortable('call_cost'),
      },
      {
        key: 'voicemail',
        label: 'Voicemail',
        width: 100,
        render: (c) => <span>{c.voicemail === null ? '—' : c.voicemail ? 'Yes' : 'No'}</span>,
      },
      {
        key: 'agent',
        label: 'Agent',
        width: 150,
        render: (c) => <span>{shownText(c.agentName, c.agentId)}</span>,
      },
      {
        key: 'campaign',
        label: 'Campaign',
        width: 150,
        render: (c) => <span>{campaignLabel(labels, c.bulkListId)}</span>,
      },
      {
        key: 'queued',
        label: 'Queued',
        width: 190,
        render: (c) => <span>{formatDateTime(c.createdAt)}</span>,
        sort: sortable('created_at'),
      },
      {
        key: 'recording',
        label: 'Recording',
        width: 110,
        render: (c) => <span>{humanize(c.recording)}</span>,
      },
    ];
    if (searching) {
      list.splice(2, 0, {
        key: 'match',
        label: 'Match',
        width: 420,
        render: (c) => (
          <span title={c.snippet?.map((p) => p.text).join('')}>
            {c.snippet
              ? leadToHit(c.snippet).map((p, i) =>
                  p.hit ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>,
                )
              : '—'}
          </span>
        ),
      });
    }
    return list;
  }, [sort, setSort, searching, labels]);

  const exportCsv = async () => {
    setExporting(true);
    const fileName = `calls-${new Date().toISOString().slice(0, 10)}.csv`;
    const result =
      host === 'electron'
        ? await desk().calls.export({ filter, sort, path: `${folder.replace(/\/+$/, '')}/${fileName}` })
        : await desk().calls.export({ filter, sort, download: true });
    setExporting(false);
    if (!result.ok) {
      toast.error(result.error.message);
      return;
    }
    if (result.value.downloadUrl) download(result.value.downloadUrl, result.value.fileName);
    toast.success(
      `Exported ${formatCount(result.value.rows)} calls (${formatBytes(result.value.bytes)})${result.value.path ? ` to ${result.value.path}` : ''}`,
    );
  };

  return (
    <section className="panel" aria-labelledby="calls-table-title">
      <div className="calls-row">
        <h2 id="calls-table-title" className="calls-title">
          Calls
        </h2>
        <span className="muted" data-testid="calls-total" role="status">
          {total === null ? 'Counting…' : `${formatCount(total)} ${total === 1 ? 'call' : 'calls'}`}
        </span>
        {host === 'electron' ? (
          <Labelled className="calls-row" label="Save to folder">
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
        <Button busy={exporting} disabled={!total} onClick={() => void exportCsv()}>
          Export CSV{total ? ` (${formatCount(total)} calls)` : ''}
        </Button>
      </div>
      <WindowedTable
        label="Calls"
        cache={cache}
        total={total ?? 0}
        columns={columns}
        rowHeight={ROW_HEIGHT}
        version={version}
        rowKey={(c) => c.id}
        onOpen={(c) => openCall(c.id)}
        help="Arrow keys, Page Up/Down, Home and End move; Enter opens the call. Column headers sort."
      />
    </section>
  );
}

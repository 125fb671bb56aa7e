import { useEffect, useId, useState } from 'react';
import { REASON_TEXT, SUPPRESSION_REASONS } from '../../../../shared/domain/suppression.ts';
import type { SuppressionReason } from '../../../../shared/domain/suppression.ts';
import type { ContactList } from '../../../../shared/ipc/channels/contacts.ts';
import type { SuppressionEntryView } from '../../../../shared/ipc/channels/suppression.ts';
import { useApp } from '../../app/appStore.ts';
import { PageHeader } from '../../app/PageHeader.tsx';
import { Button } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { download } from '../../components/download.ts';
import { dateTimeFormat, formatCount } from '../../components/format.ts';
import { toast } from '../../components/toastStore.ts';
import { desk } from '../../desk/desk.ts';
import { OffersNotice } from '../../shared-doNotCall/OffersNotice.tsx';

const PAGE = 100;
type Scope = 'both' | 'workspace' | 'shared';
type HistoryEvent = { shared: boolean; action: string; reason: string; by: string; at: string };

const formatDateTime = (iso: string) => {
  const at = new Date(iso);
  return Number.isNaN(at.getTime())
    ? iso
    : dateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
};

const sourcesText = (e: SuppressionEntryView) =>
  e.sources.map((s) => (s.kind === 'manual' ? `by hand (${s.ref})` : `${s.kind} ${s.ref}`)).join(', ');

/**
 * The do-not-call list: search, add (one number or many, this workspace's list or the shared one),
 * remove with Undo, each number's history, import from a contact list (read by the contacts engine)
 * and export as CSV, the opt-out phrases transcripts are scanned for, and the results' suggestions.
 */
export function DoNotCallPage() {
  const activeId = useApp((s) => s.activeId);
  const host = useApp((s) => s.info?.host ?? 'browser');
  const [scope, setScope] = useState<Scope>('both');
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<{ total: number; entries: SuppressionEntryView[] } | null>(null);
  const [numbers, setNumbers] = useState('');
  const [reason, setReason] = useState<SuppressionReason>('manual');
  const [shared, setShared] = useState(false);
  const [refused, setRefused] = useState<string[]>([]);
  const [undo, setUndo] = useState<{ token: string; text: string } | null>(null);
  const [history, setHistory] = useState<{ number: string; events: HistoryEvent[] } | null>(null);
  const [lists, setLists] = useState<ContactList[]>([]);
  const [importList, setImportList] = useState('');
  const [phrases, setPhrases] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = {
    search: useId(),
    scope: useId(),
    numbers: useId(),
    reason: useId(),
    list: useId(),
    phrases: useId(),
  };

  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    void desk()
      .suppression.list({ scope, search, offset, limit: PAGE })
      .then((r) => {
        if (!live) return;
        if (r.ok) setPage(r.value);
        else toast.error(r.error.message);
      });
    return () => {
      live = false;
    };
  }, [scope, search, offset, activeId, tick]);
  useEffect(() => desk().on('suppression:changed', () => setTick((t) => t + 1)), []);
  useEffect(() => {
    void desk()
      .contacts.lists()
      .then((r) => r.ok && setLists(r.value.lists));
    void desk()
      .suppression.phrases()
      .then((r) => r.ok && setPhrases(r.value.phrases.join('\n')));
  }, [activeId]);

  const add = async () => {
    const list = numbers
      .split(/[\n,;]+/)
      .map((n) => n.trim())
      .filter(Boolean);
    if (list.length === 0) return;
    setBusy(true);
    const r = await desk().suppression.add({ numbers: list, reason, shared });
    setBusy(false);
    if (!r.ok) return void toast.error(r.error.message);
    setRefused(r.value.refused.map((x) => x.message));
    if (r.value.refused.length === 0) setNumbers('');
    toast.success(`${formatCount(r.value.added + r.value.merged)} added to the do-not-call list`);
  };
  const remove = async (e: SuppressionEntryView) => {
    const r = await desk().suppression.remove({ numbers: [e.number], shared: e.shared });
    if (!r.ok) return void toast.error(r.error.message);
    if (r.value.undoToken) setUndo({ token: r.value.undoToken, text: `Removed ${e.number}.` });
  };
  const undoRemove = async () => {
    if (!undo) return;
    const r = await desk().suppression.undoRemove({ undoToken: undo.token });
    setUndo(null);
    if (!r.ok) toast.error(r.error.message);
  };
  const showHistory = async (number: string) => {
    const r = await desk().suppression.history({ number });
    if (r.ok) setHistory({ number, events: r.value.events });
  };
  const takeList = async () => {
    if (!importList) return;
    setBusy(true);
    const r = await desk().suppression.importList({ listId: Number(importList), shared });
    setBusy(false);
    if (!r.ok) return void toast.error(r.error.message);
    const skipped = r.value.skipped
      ? `; ${formatCount(r.value.skipped)} rows skipped (no valid number, or excluded)`
      : '';
    toast.success(
      `${formatCount(r.value.added)} added, ${formatCount(r.value.merged)} already listed (merged)${skipped}`,
    );
  };
  const exportFile = async (format: 'csv' | 'xlsx') => {
    const r =
      host === 'electron'
        ? await desk().suppression.export({ scope, format, path: '~/Downloads' })
        : await desk().suppression.export({ scope, format, download: true });
    if (!r.ok) return void toast.error(r.error.message);
    if (r.value.downloadUrl) download(r.value.downloadUrl, r.value.fileName);
    else toast.success(`Saved ${r.value.path ?? r.value.fileName}`);
  };
  const savePhrases = async () => {
    if (phrases === null) return;
    const r = await desk().suppression.setPhrases({
      phrases: phrases
        .split('\n')
        .map((p) => p.trim())
        .filter((p) => p.length >= 2),
    });
    if (!r.ok) return void toast.error(r.error.message);
    setPhrases(r.value.phrases.join('\n'));
    toast.success('Phrases saved; transcripts were scanned again');
  };

  return (
    <>
      <PageHeader
        title="Do not call"
        subtitle="Numbers that are never uploaded again: every contact list holds them back, and every launch checks again right before the upload."
      />
      <div className="page-body do-not-call">
        <OffersNotice />
        <section className="panel" aria-labelledby={`${ids.numbers}-title`}>
          <h2 id={`${ids.numbers}-title`} className="subsection-title">
            Add numbers
          </h2>
          <label htmlFor={ids.numbers}>
            Numbers (one a line; without +91 they are read as Indian numbers)
          </label>
          <textarea
            id={ids.numbers}
            className="input"
            rows={3}
            value={numbers}
            onChange={(e) => setNumbers(e.target.value)}
          />
          <div className="calls-row">
            <label htmlFor={ids.reason}>Reason</label>
            <select
              id={ids.reason}
              className="select"
              value={reason}
              onChange={(e) => setReason(e.target.value as SuppressionReason)}
            >
              {SUPPRESSION_REASONS.map((r) => (
                <option key={r} value={r}>
                  {REASON_TEXT[r]}
                </option>
              ))}
            </select>
            <label>
              <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} /> Shared
              by every workspace
            </label>
            <Button variant="primary" busy={busy} onClick={() => void add()}>
              Add to the do-not-call list
            </Button>
          </div>
          {refused.length > 0 ? (
            <ul className="field-error" role="alert">
              {refused.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          ) : null}
          <div className="calls-row">
            <label htmlFor={ids.list}>
              Import the numbers of a contact list (CSV or .xlsx imported in Contacts)
            </label>
            <select
              id={ids.list}
              className="select"
              value={importList}
              onChange={(e) => setImportList(e.target.value)}
            >
              <option value="">Choose a list…</option>
              {lists.map((l) => (
                <option key={l.id} value={String(l.id)}>
                  {l.name} ({formatCount(l.counts.valid)} valid)
                </option>
              ))}
            </select>
            <Button busy={busy} disabled={!importList} onClick={() => void takeList()}>
              Import
            </Button>
            <Button onClick={() => void exportFile('csv')}>Export as CSV</Button>
            <Button onClick={() => void exportFile('xlsx')}>Export as .xlsx</Button>
          </div>
        </section>

        <section className="panel" aria-labelledby={`${ids.search}-title`}>
          <h2 id={`${ids.search}-title`} className="subsection-title">
            The list{page ? ` (${formatCount(page.total)})` : ''}
          </h2>
          <div className="calls-row">
            <label htmlFor={ids.search}>Search digits</label>
            <input
              id={ids.search}
              className="input"
              type="search"
              value={search}
              onChange={(e) => {
                setSearch(e.target.value);
                setOffset(0);
              }}
            />
            <label htmlFor={ids.scope}>Lists</label>
            <select
              id={ids.scope}
              className="select"
              value={scope}
              onChange={(e) => {
                setScope(e.target.value as Scope);
                setOffset(0);
              }}
            >
              <option value="both">This workspace and shared</option>
              <option value="workspace">This workspace only</option>
              <option value="shared">Shared only</option>
            </select>
          </div>
          {undo ? (
            <p role="status" data-testid="suppression-undo">
              {undo.text}{' '}
              <Button size="sm" onClick={() => void undoRemove()}>
                Undo
              </Button>
            </p>
          ) : null}
          <table className="lists-table" data-testid="suppression-table">
            <caption className="visually-hidden">Numbers on the do-not-call list</caption>
            <thead>
              <tr>
                <th scope="col">Number</th>
                <th scope="col">Reason</th>
                <th scope="col">List</th>
                <th scope="col">Sources</th>
                <th scope="col">Added</th>
                <th scope="col">Expires</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {(page?.entries ?? []).map((e) => (
                <tr key={`${e.number}:${e.shared}`} data-number={e.number}>
                  <th scope="row" className="mono">
                    {e.number}
                  </th>
                  <td>{REASON_TEXT[e.reason]}</td>
                  <td>{e.shared ? 'Shared' : 'This workspace'}</td>
                  <td>{sourcesText(e)}</td>
                  <td>
                    {formatDateTime(e.addedAt)} by {e.addedBy}
                  </td>
                  <td>{e.expiresAt ? formatDateTime(e.expiresAt) : 'Never'}</td>
                  <td>
                    <Button size="sm" aria-haspopup="dialog" onClick={() => void showHistory(e.number)}>
                      History<span className="visually-hidden"> of {e.number}</span>
                    </Button>{' '}
                    <Button size="sm" variant="ghost" onClick={() => void remove(e)}>
                      Remove<span className="visually-hidden"> {e.number}</span>
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {page && page.total === 0 ? <p className="muted">No numbers{search ? ' match' : ' yet'}.</p> : null}
          {page && page.total > PAGE ? (
            <div className="calls-row">
              <Button size="sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
                Previous
              </Button>
              <span>
                {formatCount(offset + 1)}–{formatCount(Math.min(page.total, offset + PAGE))} of{' '}
                {formatCount(page.total)}
              </span>
              <Button
                size="sm"
                disabled={offset + PAGE >= page.total}
                onClick={() => setOffset(offset + PAGE)}
              >
                Next
              </Button>
            </div>
          ) : null}
        </section>

        <section className="panel" aria-labelledby={`${ids.phrases}-title`}>
          <h2 id={`${ids.phrases}-title`} className="subsection-title">
            Opt-out phrases
          </h2>
          <label htmlFor={ids.phrases}>
            Phrases a customer uses to ask not to be called (one a line; English and Hindi, romanised or
            Devanagari). Transcripts that contain one are suggested above, never added by themselves.
          </label>
          <textarea
            id={ids.phrases}
            className="input"
            rows={6}
            value={phrases ?? ''}
            onChange={(e) => setPhrases(e.target.value)}
          />
          <Button onClick={() => void savePhrases()}>Save phrases</Button>
        </section>
      </div>
      {history ? (
        <Dialog open title={`History of ${history.number}`} onClose={() => setHistory(null)}>
          <div className="dialog-body">
            <ol data-testid="suppression-history">
              {history.events.map((h, i) => (
                <li key={i}>
                  {formatDateTime(h.at)}: {h.action} ({REASON_TEXT[h.reason as SuppressionReason] ?? h.reason}
                  {h.shared ? ', shared list' : ''}) by {h.by}
                </li>
              ))}
            </ol>
          </div>
          <div className="dialog-footer">
            <Button onClick={() => setHistory(null)}>Close</Button>
          </div>
        </Dialog>
      ) : null}
    </>
  );
}

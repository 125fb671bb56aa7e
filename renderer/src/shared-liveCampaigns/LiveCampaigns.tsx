import { useEffect, useId, useState } from 'react';
import { ListTable } from '../components/ListTable.tsx';
import type { LiveStatus } from '../../../shared/ipc/channels/calls.ts';
import { formatCost, formatCount, formatDateTime, formatWhen } from '../components/format.ts';
import { useApp } from '../app/appStore.ts';
import { desk } from '../desk/desk.ts';
import '../styles/calls.css';

/** How often the figures' age is redrawn ("updated 2 min ago"). */
const AGE_TICK_MS = 10_000;

/**
 * Counters of the campaigns launched from here, moving by themselves while a campaign runs (the
 * back end polls its calls and says when a pass ends); offline, the last figures stay with their age.
 */
export function LiveCampaigns() {
  const id = useId();
  const activeId = useApp((s) => s.activeId);
  const [live, setLive] = useState<LiveStatus | null>(null);
  const [, setNow] = useState(0);

  useEffect(() => {
    let alive = true;
    const load = () =>
      void desk()
        .calls.live({})
        .then((r) => {
          if (alive && r.ok) setLive(r.value);
        });
    load();
    const offLive = desk().on('calls:live-changed', (s) => {
      if (s.workspaceId === useApp.getState().activeId && !s.running) setLive(s);
    });
    const offChanged = desk().on('calls:changed', (c) => {
      if (c.workspaceId === useApp.getState().activeId) load();
    });
    const timer = setInterval(() => setNow(Date.now()), AGE_TICK_MS);
    return () => {
      alive = false;
      offLive();
      offChanged();
      clearInterval(timer);
    };
  }, [activeId]);

  if (!live || live.campaigns.length === 0) return null;
  const anyRunning = live.campaigns.some((c) => c.running);
  const age = live.updatedAt ? formatWhen(live.updatedAt) : null;
  return (
    <section className="panel" aria-labelledby={`${id}-title`} data-testid="live-campaigns">
      <div className="calls-row">
        <h2 id={`${id}-title`} className="calls-title">
          Campaign progress
        </h2>
        <span className="muted" data-testid="live-updated">
          {live.polling
            ? `Updating by itself while running${age ? ` (updated ${age})` : ''}`
            : anyRunning
              ? `Not updating while offline${age ? `: figures from ${age}` : ''}`
              : age
                ? `Updated ${age}`
                : 'From the calls synced so far'}
        </span>
      </div>
      <ListTable
        labelledBy={`${id}-title`}
        columns={[
          'Campaign',
          'State',
          'Dialled',
          'Answered',
          'Completed',
          'Left',
          'Credits spent',
          'Estimated finish',
        ]}
      >
        {live.campaigns.map((c) => (
          <tr key={c.bulkListId} data-live-campaign={c.name}>
            <th scope="row">{c.name}</th>
            <td data-col="state">{c.running ? 'Running' : 'Finished'}</td>
            <td data-col="dialled">{formatCount(c.dialled)}</td>
            <td data-col="answered">{formatCount(c.answered)}</td>
            <td data-col="completed">{formatCount(c.completed)}</td>
            <td data-col="left">{formatCount(c.left)}</td>
            <td data-col="credits">{formatCost(c.credits)}</td>
            <td data-col="finish">
              {c.estimatedFinishAt ? formatDateTime(c.estimatedFinishAt) : c.running ? '—' : 'Done'}
            </td>
          </tr>
        ))}
      </ListTable>
    </section>
  );
}

import { useEffect, useMemo, useState } from 'react';
import type { CallStats } from '../../../../shared/ipc/channels/calls.ts';
import { dateTimeFormat } from '../../components/format.ts';
import { desk } from '../../desk/desk.ts';
import { formatCount } from '../contacts/formatNumbers.ts';
import { ChartFigure } from './ChartFigure.tsx';
import { formatClock, formatCost, humanize } from './callFormat.ts';
import { useCalls } from './callsStore.ts';
import { Labelled } from './Labelled.tsx';
import { campaignLabel } from './campaignNames.ts';
import { useCampaignLabels } from './useCampaignLabels.ts';

function periodLabel(iso: string, bucket: CallStats['overTime']['bucket']): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return dateTimeFormat(
    undefined,
    bucket === 'hour' ? { dateStyle: 'short', timeStyle: 'short' } : { dateStyle: 'medium' },
  ).format(at);
}

/** Charts of the stored calls, overall or for one campaign; each with its numbers as a table. */
export function ChartsPanel() {
  const campaigns = useCalls((s) => s.campaigns);
  const labels = useCampaignLabels();
  const version = useCalls((s) => s.version);
  const [bulkListId, setBulkListId] = useState('');
  const [stats, setStats] = useState<CallStats | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void desk()
      .calls.stats({ filter: bulkListId ? { bulkListId } : {} })
      .then((r) => {
        if (!live) return;
        if (r.ok) {
          setStats(r.value);
          setError(null);
        } else setError(r.error.message);
      });
    return () => {
      live = false;
    };
  }, [bulkListId, version]);

  const charts = useMemo(() => {
    if (!stats) return null;
    const over = stats.overTime;
    return {
      status: {
        labels: stats.byStatus.map((s) => humanize(s.status)),
        series: [{ label: 'Calls', values: stats.byStatus.map((s) => s.count) }],
      },
      sub: {
        labels: stats.bySubStatus.map((s) => humanize(s.subStatus)),
        series: [{ label: 'Calls', values: stats.bySubStatus.map((s) => s.count) }],
      },
      time: {
        labels: over.points.map((p) => periodLabel(p.at, over.bucket)),
        series: [
          { label: 'Calls', values: over.points.map((p) => p.calls) },
          { label: 'Completed', values: over.points.map((p) => p.completed) },
        ],
      },
      cost: {
        labels: over.points.map((p) => periodLabel(p.at, over.bucket)),
        series: [{ label: 'Cost', values: over.points.map((p) => p.cost) }],
      },
      duration: {
        labels: stats.duration.map((b) => `${formatClock(b.from)}–${formatClock(b.to)}`),
        series: [{ label: 'Calls', values: stats.duration.map((b) => b.count) }],
      },
    };
  }, [stats]);

  return (
    <section className="panel" aria-labelledby="charts-title">
      <div className="calls-row">
        <h2 id="charts-title" className="calls-title">
          Charts
        </h2>
        <Labelled className="calls-row" label="Charts for">
          {(id) => (
            <select
              id={id}
              className="select"
              value={bulkListId}
              onChange={(e) => setBulkListId(e.target.value)}
            >
              <option value="">All calls</option>
              {campaigns.map((c) => (
                <option key={c.bulkListId} value={c.bulkListId}>
                  {campaignLabel(labels, c.bulkListId)}
                </option>
              ))}
            </select>
          )}
        </Labelled>
      </div>
      {error ? <p className="field-error">{error}</p> : null}
      {stats && charts ? (
        stats.total === 0 ? (
          <p className="muted">No calls to chart yet.</p>
        ) : (
          <>
            <p className="calls-figures" data-testid="stats-figures">
              <span>
                Calls: <strong>{formatCount(stats.total)}</strong>
              </span>
              <span>
                Voicemail: <strong>{formatCount(stats.voicemail)}</strong>
              </span>
              <span>
                Talk time: <strong>{formatClock(stats.durationSeconds.total)}</strong> (average{' '}
                {stats.durationSeconds.average === null ? '—' : formatClock(stats.durationSeconds.average)})
              </span>
              <span>
                Cost: <strong>{formatCost(stats.cost.total)}</strong> (average{' '}
                {formatCost(stats.cost.average)}, highest {formatCost(stats.cost.max)})
              </span>
            </p>
            <div className="charts-grid">
              <ChartFigure title="Calls by status" kind="bar" horizontal {...charts.status} />
              <ChartFigure title="Calls by sub-status" kind="bar" horizontal {...charts.sub} />
              <ChartFigure title={`Calls per ${stats.overTime.bucket}`} kind="line" {...charts.time} />
              <ChartFigure title="Call duration" kind="bar" {...charts.duration} />
              <ChartFigure
                title={`Cost per ${stats.overTime.bucket}`}
                kind="bar"
                format={formatCost}
                {...charts.cost}
              />
            </div>
          </>
        )
      ) : !error ? (
        <p className="muted" role="status">
          Loading charts…
        </p>
      ) : null}
    </section>
  );
}

import { useEffect, useMemo, useState } from 'react';
import type { CallStats } from '../../../../shared/ipc/channels/calls.ts';
import { OUTCOME_TEXT } from '../../../../shared/domain/callOutcome.ts';
import { dateTimeFormat, formatCost, formatCount, numberFormat } from '../../components/format.ts';
import { desk } from '../../desk/desk.ts';
import { ChartFigure } from './ChartFigure.tsx';
import { AnswerHeatmap } from './AnswerHeatmap.tsx';
import { formatClock, formatRate } from './callFormat.ts';
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

const percent = (n: number) => `${numberFormat(undefined, { maximumFractionDigits: 1 }).format(n)}%`;

/** This computer's timezone: the heatmap's for calls whose campaign has none here. */
const localZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/**
 * Charts that answer an operator's questions, overall or for one campaign, each with its numbers
 * as a table: how far contacts got (funnel), what calls came to, calls and answer rate over time,
 * talk time of answered calls, cost per completed call, and when people answer (heatmap).
 * Never-dialled calls are counted only where a call's outcome is (funnel contacts, outcomes).
 */
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
      .calls.stats({ filter: bulkListId ? { bulkListId } : {}, timeZone: localZone() })
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
    const periods = over.points.map((p) => periodLabel(p.at, over.bucket));
    const f = stats.funnel;
    const steps = [
      { label: 'Contacts', n: f.contacts },
      { label: 'Dialled', n: f.dialled },
      { label: 'Answered', n: f.answered },
      { label: 'Completed', n: f.completed },
    ];
    return {
      funnel: {
        labels: steps.map((s) => s.label),
        series: [{ label: 'Contacts', values: steps.map((s) => s.n) }],
        extraColumns: [
          {
            label: 'Of the step before',
            values: steps.map((s, i) => (i === 0 ? '—' : formatRate(s.n, steps[i - 1]!.n))),
          },
          { label: 'Of all contacts', values: steps.map((s) => formatRate(s.n, f.contacts)) },
        ],
      },
      outcomes: {
        labels: stats.outcomes.map((o) => OUTCOME_TEXT[o.outcome]),
        series: [{ label: 'Calls', values: stats.outcomes.map((o) => o.count) }],
        extraColumns: [
          { label: 'Share', values: stats.outcomes.map((o) => formatRate(o.count, stats.total)) },
        ],
      },
      time: {
        labels: periods,
        series: [
          { label: 'Dialled', values: over.points.map((p) => p.calls) },
          { label: 'Answered', values: over.points.map((p) => p.answered) },
        ],
      },
      rate: {
        labels: periods,
        series: [
          {
            label: 'Answer rate (%)',
            values: over.points.map((p) => (p.calls > 0 ? (100 * p.answered) / p.calls : 0)),
          },
        ],
      },
      duration: {
        labels: stats.duration.map((b) => `${formatClock(b.from)}–${formatClock(b.to)}`),
        series: [{ label: 'Answered calls', values: stats.duration.map((b) => b.count) }],
      },
      costPerCompleted: {
        labels: periods,
        series: [
          {
            label: 'Cost per completed call',
            values: over.points.map((p) => (p.completed > 0 ? p.cost / p.completed : 0)),
          },
        ],
        extraColumns: [
          { label: 'Cost', values: over.points.map((p) => formatCost(p.cost)) },
          { label: 'Completed calls', values: over.points.map((p) => formatCount(p.completed)) },
        ],
      },
    };
  }, [stats]);

  const per = stats?.overTime.bucket ?? 'hour';
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
                Calls: <strong>{formatCount(stats.total)}</strong> ({formatCount(stats.dialled)} dialled)
              </span>
              <span>
                Answered: <strong>{formatRate(stats.durationSeconds.answered, stats.dialled)}</strong> of
                dialled calls
              </span>
              <span>
                Talk time of answered calls: <strong>{formatClock(stats.durationSeconds.total)}</strong>{' '}
                (average{' '}
                {stats.durationSeconds.average === null ? '—' : formatClock(stats.durationSeconds.average)})
              </span>
              <span>
                Cost: <strong>{formatCost(stats.cost.total)}</strong> (per completed call{' '}
                <strong>{formatCost(stats.cost.perCompleted)}</strong>)
              </span>
            </p>
            <div className="charts-grid">
              <ChartFigure
                title="Funnel: contacts → dialled → answered → completed"
                kind="bar"
                horizontal
                categoryAxis="Step"
                valueAxis="Contacts (numbers)"
                {...charts.funnel}
              />
              <ChartFigure
                title="Outcomes"
                kind="bar"
                horizontal
                categoryAxis="Outcome"
                valueAxis="Calls"
                {...charts.outcomes}
              />
              <ChartFigure
                title={`Dialled and answered calls per ${per}`}
                kind="line"
                categoryAxis={`Time of the call (per ${per})`}
                valueAxis="Calls"
                {...charts.time}
              />
              <ChartFigure
                title={`Answer rate per ${per}`}
                kind="line"
                categoryAxis={`Time of the call (per ${per})`}
                valueAxis="Answered of dialled (%)"
                format={percent}
                {...charts.rate}
              />
              <ChartFigure
                title="Duration of answered calls"
                kind="bar"
                categoryAxis="Duration (m:ss)"
                valueAxis="Answered calls"
                {...charts.duration}
              />
              <ChartFigure
                title={`Cost per completed call, per ${per}`}
                kind="bar"
                categoryAxis={`Time of the call (per ${per})`}
                valueAxis="Cost per completed call (credits)"
                format={formatCost}
                {...charts.costPerCompleted}
              />
            </div>
            <AnswerHeatmap heatmap={stats.heatmap} />
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

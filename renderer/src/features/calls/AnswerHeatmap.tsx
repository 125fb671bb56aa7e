import { useId } from 'react';
import type { CallStats } from '../../../../shared/ipc/channels/calls.ts';
import { formatCount } from '../../components/format.ts';
import { formatRate } from './callFormat.ts';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const HOURS = Array.from({ length: 24 }, (_, h) => h);
const hourLabel = (h: number) => `${String(h).padStart(2, '0')}:00`;
/** Fewer dialled calls than this in a cell: its rate is shown but not ranked among the best hours. */
const MIN_FOR_BEST = 10;

/** Heat level 0–4 of a rate (0: no call dialled then). */
const level = (rate: number | null): number => (rate === null ? 0 : 1 + Math.min(3, Math.floor(rate * 4)));

/**
 * Answer rate by weekday × hour of the call, in the campaign's timezone: which window to call in
 * tomorrow. The grid is itself a table (weekday rows, hour columns, the rate in each cell, shades
 * only help); the counts behind each rate are in the numbers table below it.
 */
export function AnswerHeatmap({ heatmap }: { heatmap: CallStats['heatmap'] }) {
  const id = useId();
  const byKey = new Map(heatmap.cells.map((c) => [c.weekday * 24 + c.hour, c]));
  const best = heatmap.cells
    .filter((c) => c.dialled >= MIN_FOR_BEST)
    .sort((a, b) => b.answered / b.dialled - a.answered / a.dialled || b.dialled - a.dialled)
    .slice(0, 3);
  const zones =
    heatmap.campaignZones.length > 0
      ? `each campaign's timezone (${heatmap.campaignZones.join(', ')}), else ${heatmap.timeZone}`
      : heatmap.timeZone;
  return (
    <figure className="chart-figure heatmap" aria-labelledby={`${id}-title`} data-testid="answer-heatmap">
      <figcaption id={`${id}-title`} className="chart-title">
        Answer rate by weekday and hour (answered of dialled calls, %, time of the call in {zones})
      </figcaption>
      {best.length > 0 ? (
        <p className="field-hint">
          Best hours:{' '}
          {best
            .map((c) => `${WEEKDAYS[c.weekday]} ${hourLabel(c.hour)} (${formatRate(c.answered, c.dialled)})`)
            .join(', ')}
        </p>
      ) : null}
      <div className="table-scroll" role="region" aria-labelledby={`${id}-title`} tabIndex={0} data-scroll-x>
        <table className="heatmap-table">
          <thead>
            <tr>
              <th scope="col">Weekday \ hour</th>
              {HOURS.map((h) => (
                <th key={h} scope="col">
                  {String(h).padStart(2, '0')}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {WEEKDAYS.map((day, d) => (
              <tr key={day}>
                <th scope="row">{day.slice(0, 3)}</th>
                {HOURS.map((h) => {
                  const c = byKey.get(d * 24 + h);
                  const rate = c && c.dialled > 0 ? c.answered / c.dialled : null;
                  return (
                    <td
                      key={h}
                      className={`heat-${level(rate)}`}
                      data-cell={`${d}-${h}`}
                      title={
                        c
                          ? `${day} ${hourLabel(h)}: ${formatCount(c.answered)} answered of ${formatCount(c.dialled)} dialled`
                          : `${day} ${hourLabel(h)}: no call dialled`
                      }
                    >
                      {rate === null ? '' : Math.round(rate * 100)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <details className="chart-numbers">
        <summary>Numbers: answer rate by weekday and hour</summary>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Weekday</th>
              <th scope="col">Hour</th>
              <th scope="col">Dialled</th>
              <th scope="col">Answered</th>
              <th scope="col">Answer rate</th>
            </tr>
          </thead>
          <tbody>
            {heatmap.cells.map((c) => (
              <tr key={`${c.weekday}-${c.hour}`}>
                <th scope="row">{WEEKDAYS[c.weekday]}</th>
                <td>{hourLabel(c.hour)}</td>
                <td>{formatCount(c.dialled)}</td>
                <td>{formatCount(c.answered)}</td>
                <td>{formatRate(c.answered, c.dialled)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

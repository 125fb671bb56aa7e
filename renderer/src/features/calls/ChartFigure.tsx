import { useEffect, useId, useRef } from 'react';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { formatInteger } from '../../components/format.ts';
import { cssVar, seriesColours } from '../../components/themeColors.ts';
import { wrapLabel } from './wrapLabel.ts';

// Only the pieces these charts use (keeps the bundle small).
Chart.register(
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  Legend,
  Tooltip,
);

export interface ChartSeries {
  label: string;
  values: number[];
}

export interface ChartFigureProps {
  title: string;
  kind: 'bar' | 'line';
  /** One label per value of each series (the x axis, or the bars). */
  labels: string[];
  series: ChartSeries[];
  /** How a number is shown in the table (counts by default). */
  format?: (n: number) => string;
  /** Bars drawn sideways (long category names read better). */
  horizontal?: boolean;
  /** Axis titles with their units: the categories' axis and the values' axis. */
  categoryAxis: string;
  valueAxis: string;
  /** Extra columns of the numbers table (e.g. a rate next to each count). */
  extraColumns?: Array<{ label: string; values: string[] }>;
}

/**
 * One chart (chart.js on a canvas) with its text alternative: the same numbers as a table, which a
 * screen reader reads and anyone can open. Colours come from the theme.
 */
/** Height of sideways bars: every category gets the room of the tallest wrapped label (Chart.js spaces them evenly). */
const barsHeight = (labels: readonly string[]): number => {
  const lines = Math.max(1, ...labels.map((l) => [wrapLabel(l)].flat().length));
  return Math.max(220, labels.length * Math.max(22, lines * 16) + 40);
};

export function ChartFigure({
  title,
  kind,
  labels,
  series,
  format = formatInteger,
  horizontal,
  categoryAxis,
  valueAxis,
  extraColumns = [],
}: ChartFigureProps) {
  const id = useId();
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const colours = seriesColours();
    const text = cssVar('--text-muted');
    const grid = cssVar('--border');
    const chart = new Chart(canvas, {
      type: kind,
      data: {
        labels,
        datasets: series.map((s, i) => ({
          label: s.label,
          data: s.values,
          backgroundColor: colours[i % colours.length],
          borderColor: colours[i % colours.length],
          borderWidth: kind === 'line' ? 2 : 0,
          pointRadius: kind === 'line' ? 2 : 0,
        })),
      },
      options: {
        indexAxis: horizontal ? 'y' : 'x',
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: {
          legend: { display: series.length > 1, labels: { color: text } },
          tooltip: { enabled: true },
        },
        scales: {
          x: {
            ticks: { color: text, autoSkip: !horizontal },
            grid: { color: grid },
            title: { display: true, text: horizontal ? valueAxis : categoryAxis, color: text },
            beginAtZero: Boolean(horizontal),
          },
          y: {
            ticks: {
              color: text,
              autoSkip: !horizontal,
              // Long category names wrap rather than run off the card's edge.
              ...(horizontal
                ? { callback: (value: string | number) => wrapLabel(labels[Number(value)] ?? '') }
                : {}),
            },
            grid: { color: grid },
            beginAtZero: true,
            title: { display: true, text: horizontal ? categoryAxis : valueAxis, color: text },
          },
        },
      },
    });
    return () => chart.destroy();
  }, [kind, labels, series, horizontal, categoryAxis, valueAxis]);

  return (
    <figure className="chart-figure" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="chart-title">
        {title}
      </figcaption>
      {/* Sideways bars get room for every category label, each of its lines included. */}
      <div className="chart-canvas" style={horizontal ? { height: barsHeight(labels) } : undefined}>
        <canvas
          ref={canvasRef}
          role="img"
          aria-label={`${title} (chart; the numbers are in the table below)`}
        />
      </div>
      <details className="chart-numbers">
        <summary>Numbers: {title}</summary>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{categoryAxis}</th>
              {series.map((s) => (
                <th key={s.label} scope="col">
                  {s.label}
                </th>
              ))}
              {extraColumns.map((c) => (
                <th key={c.label} scope="col">
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {labels.map((label, row) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                {series.map((s) => (
                  <td key={s.label}>{format(s.values[row] ?? 0)}</td>
                ))}
                {extraColumns.map((c) => (
                  <td key={c.label}>{c.values[row] ?? ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

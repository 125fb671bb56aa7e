import { useEffect, useRef } from 'react';
import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import { z } from 'zod';
import type { CampaignPlan } from '../../../../shared/ipc/channels/campaigns.ts';
import { formatCount } from '../../components/format.ts';
import { cssVar, seriesColours } from '../../components/themeColors.ts';
import { formatPlanDay } from './planText.ts';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

// The chart is redrawn only when what it shows changes: the effect depends on this JSON key of
// [labels, calls per day, timezone] and reads the figures back from it.
const chartKeySchema = z.tuple([z.array(z.string()), z.array(z.number()), z.string()]);

/**
 * Calls per day (chart.js) with titled axes: days in the campaign's timezone, calls as a count. The
 * table beside it is its text alternative (the canvas points to it).
 */
export function PlanChart({ plan, tableId }: { plan: CampaignPlan; tableId: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const days = plan.days.slice(0, 62);
  const labels = days.map((d) => formatPlanDay(d.date));
  const values = days.map((d) => d.calls);
  const xTitle = `Day (${plan.timezone})`;
  const yTitle = 'Calls placed (count)';
  const key = JSON.stringify([labels, values, plan.timezone]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const text = cssVar('--text-muted');
    const grid = cssVar('--border');
    const [labelsNow, valuesNow, zone] = chartKeySchema.parse(JSON.parse(key));
    const chart = new Chart(canvas, {
      type: 'bar',
      data: {
        labels: labelsNow,
        datasets: [{ label: 'Calls', data: valuesNow, backgroundColor: seriesColours()[0], borderWidth: 0 }],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: { legend: { display: false }, tooltip: { enabled: true } },
        scales: {
          x: {
            title: { display: true, text: `Day (${zone})`, color: text },
            ticks: { color: text },
            grid: { color: grid },
          },
          y: {
            title: { display: true, text: yTitle, color: text },
            ticks: { color: text, precision: 0 },
            grid: { color: grid },
            beginAtZero: true,
          },
        },
      },
    });
    return () => chart.destroy();
  }, [key, yTitle]);

  const summary = `Calls per day, x axis ${xTitle}, y axis ${yTitle}: ${days
    .map((d) => `${d.date} ${formatCount(d.calls)}`)
    .join(', ')}`;
  return (
    <div className="plan-chart" data-testid="plan-chart" data-x-title={xTitle} data-y-title={yTitle}>
      <canvas ref={canvasRef} role="img" aria-label={summary} aria-describedby={tableId} />
    </div>
  );
}

import { useId } from 'react';
import type { CampaignPlan } from '../../../../shared/ipc/channels/campaigns.ts';
import { formatCredits } from '../../components/format.ts';
import { formatCount } from '../contacts/formatNumbers.ts';

const BAR_WIDTH = 28;
const GAP = 8;
const HEIGHT = 90;

/** Calls per day as bars; the table below is its text alternative (and the chart says so). */
function DaysChart({ plan, tableId }: { plan: CampaignPlan; tableId: string }) {
  const days = plan.days.slice(0, 31);
  const most = Math.max(1, ...days.map((d) => d.calls));
  const width = Math.max(1, days.length) * (BAR_WIDTH + GAP);
  const summary = `Calls per day: ${days.map((d) => `${d.date} ${formatCount(d.calls)}`).join(', ')}`;
  return (
    <svg
      className="plan-chart"
      role="img"
      aria-label={summary}
      aria-describedby={tableId}
      viewBox={`0 0 ${width} ${HEIGHT + 4}`}
      width={width}
      height={HEIGHT + 4}
      data-testid="plan-chart"
    >
      {days.map((d, i) => {
        const h = Math.round((d.calls / most) * HEIGHT);
        return (
          <rect
            key={d.date}
            x={i * (BAR_WIDTH + GAP)}
            y={HEIGHT - h + 2}
            width={BAR_WIDTH}
            height={Math.max(h, d.calls > 0 ? 2 : 0)}
            className="plan-bar"
          />
        );
      })}
    </svg>
  );
}

/** Calls to place, day by day within the windows, estimated finish and credits. */
export function PlanView({ plan }: { plan: CampaignPlan }) {
  const id = useId();
  const credits = plan.credits;
  return (
    <div className="plan-view" data-testid="campaign-plan">
      <dl className="plan-facts">
        <div>
          <dt>Calls to place</dt>
          <dd data-fact="calls">{formatCount(plan.calls)}</dd>
        </div>
        <div>
          <dt>Invalid rows (not called)</dt>
          <dd data-fact="invalid">{formatCount(plan.invalid)}</dd>
        </div>
        <div>
          <dt>Launch flow</dt>
          <dd data-fact="flow">
            {plan.flow === 'large' ? 'Large (CSV upload)' : 'Standard (save and start)'}
          </dd>
        </div>
        <div>
          <dt>Estimated finish</dt>
          <dd data-fact="finish">
            {plan.estimatedFinish
              ? new Date(plan.estimatedFinish).toLocaleString()
              : 'Not within the campaign’s dates'}
          </dd>
        </div>
        <div>
          <dt>Credits needed</dt>
          <dd data-fact="credits-needed">{formatCredits(credits.needed)}</dd>
        </div>
        <div>
          <dt>Credits available</dt>
          <dd data-fact="credits-available">
            {credits.available === null
              ? 'Not reported (offline or unknown)'
              : formatCredits(credits.available)}
          </dd>
        </div>
      </dl>
      {plan.callsNotFitting > 0 ? (
        <p className="warn-text" role="note">
          {formatCount(plan.callsNotFitting)} calls do not fit before the campaign ends: widen the window,
          raise the concurrency or move the end.
        </p>
      ) : null}
      {credits.sufficient === false ? (
        <p className="warn-text" role="note">
          Not enough credits: the service may refuse the start (402).
        </p>
      ) : null}
      {plan.days.length > 0 ? (
        <>
          <DaysChart plan={plan} tableId={`${id}-days`} />
          <table className="lists-table plan-days" id={`${id}-days`}>
            <caption className="mapping-caption">Calls per day (the chart’s data)</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Window</th>
                <th scope="col">Calls</th>
              </tr>
            </thead>
            <tbody>
              {plan.days.map((d) => (
                <tr key={d.date}>
                  <th scope="row">{d.date}</th>
                  <td>
                    {d.windowStart}–{d.windowEnd}
                  </td>
                  <td>{formatCount(d.calls)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      <p className="field-hint">{plan.assumption}</p>
    </div>
  );
}

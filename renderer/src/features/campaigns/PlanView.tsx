import { useId } from 'react';
import type { CampaignPlan } from '../../../../shared/ipc/channels/campaigns.ts';
import { CheckboxField } from '../../components/Field.tsx';
import { formatCount, formatCredits, formatWhen } from '../../components/format.ts';
import { creditShortfallText } from './blockers.ts';
import { useCampaigns } from './campaignsStore.ts';
import { PlanChart } from './PlanChart.tsx';
import { formatInZone, formatPlanDay, formatPlanWindow } from './planText.ts';

/** Where the credits figure comes from and how old it is, in words. */
function creditsNote(c: CampaignPlan['credits']): string {
  if (c.available === null)
    return c.reason ? `Not reported: ${c.reason}` : 'Not reported (the service has not answered yet).';
  const age = c.checkedAt ? formatWhen(c.checkedAt) : 'at an unknown time';
  return c.source === 'service'
    ? `As the service reported ${age}.`
    : `Last reported ${age}; the service does not answer now${c.reason ? ` (${c.reason})` : ''}.`;
}

/**
 * Calls to place, day by day within the windows, start, end and estimated finish in the campaign's
 * timezone (named), credits needed against the service's figure, and what blocks the launch.
 */
export function PlanView({ plan }: { plan: CampaignPlan }) {
  const id = useId();
  const credits = plan.credits;
  const acceptShortfall = useCampaigns((s) => s.settings.acceptShortfall);
  const update = useCampaigns((s) => s.update);
  const tz = plan.timezone;
  return (
    <div className="plan-view" data-testid="campaign-plan" data-timezone={tz}>
      <p className="field-hint" data-testid="plan-timezone">
        Times and days below are in the campaign’s timezone, {tz}.
      </p>
      <dl className="plan-facts">
        <div>
          <dt>Calls to place</dt>
          <dd data-fact="calls">{formatCount(plan.calls)}</dd>
        </div>
        <div>
          <dt>Rows the service will drop</dt>
          <dd data-fact="service-drops">{formatCount(plan.rowsServiceWillDrop)}</dd>
        </div>
        <div>
          <dt>Invalid or duplicate rows (not sent)</dt>
          <dd data-fact="invalid">{formatCount(plan.invalid)}</dd>
        </div>
        <div>
          <dt>Launch flow</dt>
          <dd data-fact="flow">
            {plan.flow === 'large' ? 'Large (CSV upload)' : 'Standard (save and start)'}
          </dd>
        </div>
        <div>
          <dt>Starts</dt>
          <dd data-fact="start">{plan.start ? formatInZone(plan.start, tz) : 'Not set'}</dd>
        </div>
        <div>
          <dt>Ends</dt>
          <dd data-fact="end">{plan.end ? formatInZone(plan.end, tz) : 'Not set'}</dd>
        </div>
        <div>
          <dt>Daily window</dt>
          <dd data-fact="window">
            {plan.window.start}–{plan.window.end} ({tz}){plan.window.overnight ? ', spans midnight' : ''}
          </dd>
        </div>
        <div>
          <dt>Estimated finish</dt>
          <dd data-fact="finish">
            {plan.estimatedFinish
              ? formatInZone(plan.estimatedFinish, tz)
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
            {credits.available === null ? 'Not reported' : formatCredits(credits.available)}
          </dd>
        </div>
      </dl>
      <p className="field-hint" data-testid="credits-note">
        {creditsNote(credits)}
      </p>
      {plan.window.overnight ? (
        <p className="field-hint" role="note">
          The daily window {plan.window.start}–{plan.window.end} spans midnight: it is planned as one window
          each night, from {plan.window.start} until {plan.window.end} the next morning ({tz}).
        </p>
      ) : null}
      {plan.hoursWarning ? (
        <p className="warn-text" role="note" data-testid="plan-hours-warning">
          {plan.hoursWarning}
        </p>
      ) : null}
      {credits.sufficient === false ? (
        <p className="warn-text" role="note" data-testid="plan-credits-short">
          {creditShortfallText(credits.needed, credits.available ?? 0)}{' '}
          {credits.source === 'service'
            ? 'Launch stays disabled until the credits cover the calls.'
            : 'The launch is checked against the service’s credits again before anything is uploaded.'}
        </p>
      ) : null}
      {plan.callsNotFitting > 0 ? (
        <div className="warn-text" role="note" data-testid="plan-shortfall">
          <p>
            {formatCount(plan.callsNotFitting)} of {formatCount(plan.calls)} calls do not fit before the
            campaign ends: widen the window, raise the concurrency or move the end. Launch stays disabled
            unless you accept this.
          </p>
          <CheckboxField
            label={`Accept that ${formatCount(plan.callsNotFitting)} calls may not be placed`}
            checked={acceptShortfall}
            onChange={(on) => update({ acceptShortfall: on })}
          />
        </div>
      ) : null}
      {plan.days.length > 0 ? (
        <>
          <PlanChart plan={plan} tableId={`${id}-days`} />
          <table className="lists-table plan-days" id={`${id}-days`}>
            <caption className="mapping-caption">Calls per day in {tz} (the chart’s data)</caption>
            <thead>
              <tr>
                <th scope="col">Day ({tz})</th>
                <th scope="col">Window ({tz})</th>
                <th scope="col">Calls</th>
              </tr>
            </thead>
            <tbody>
              {plan.days.map((d) => (
                <tr key={d.date}>
                  <th scope="row">
                    <time dateTime={d.date}>{formatPlanDay(d.date)}</time>
                  </th>
                  <td>{formatPlanWindow(d)}</td>
                  <td>{formatCount(d.calls)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      <p className="field-hint" data-testid="plan-assumption">
        Estimate: {plan.assumption}.
      </p>
    </div>
  );
}

import type { LaunchView } from '../../../../shared/ipc/channels/campaigns.ts';
import { campaignStateText, launchRowsText, STEP_TEXT, stepStatus } from './launchText.ts';

const MARK = { done: '✓', current: '→', failed: '✗', todo: '·' } as const;
const SPOKEN = { done: ' (done)', current: ' (now)', failed: ' (failed)', todo: ' (not started)' } as const;

/** One launch's steps as a checklist, its state in words and the service's id once known. */
export function LaunchProgress({ launch }: { launch: LaunchView }) {
  return (
    <div className="launch-progress" data-testid="launch-progress" data-state={launch.state}>
      <p role="status" className="launch-state">
        {launch.name}: {campaignStateText(launch)}
        {launch.serviceId ? ` · id ${launch.serviceId}` : ''}
      </p>
      <ol className="launch-steps">
        {stepStatus(launch).map(({ step, status }) => (
          <li key={step} data-step={step} data-status={status} className={`launch-step step-${status}`}>
            <span aria-hidden="true">{MARK[status]}</span> {STEP_TEXT[step]}
            <span className="visually-hidden">{SPOKEN[status]}</span>
            {status === 'failed' && launch.message ? (
              <span className="step-message">: {launch.message}</span>
            ) : null}
          </li>
        ))}
      </ol>
      <p className="field-hint" data-testid="launch-rows">
        {launchRowsText(launch)}
      </p>
      {launch.rejectsUrl ? (
        <p>
          <a href={launch.rejectsUrl} target="_blank" rel="noreferrer">
            The service’s rejects file
          </a>
        </p>
      ) : null}
      {launch.message ? (
        <p className={launch.state === 'failed' ? 'field-error' : 'muted'}>{launch.message}</p>
      ) : null}
    </div>
  );
}

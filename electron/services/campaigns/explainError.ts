// A failure of the calling service in plain words for the timeline, the UI and the CLI's one line.
// ApiError already reads both error shapes (`{error:{code,message}}` and `{detail}` / the 422 list).
import type { ApiError } from '../api/index.ts';

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

export function explainApiError(e: ApiError): string {
  const said = oneLine(e.message);
  switch (e.status) {
    case 402:
      return `Not enough credits for this campaign: ${said}. Add credits to the workspace, then launch again.`;
    case 409:
      return `The service says the list is not ready, failed, or was already started: ${said}`;
    case 422:
      return e.fields.length > 0
        ? `The service refused the request; fields to fix: ${e.fields.join(', ')} (${said})`
        : `The service refused the request: ${said}`;
    default:
      break;
  }
  if (e.kind === 'unauthorized') return `The service refused the API key: ${said}`;
  return said;
}

/**
 * Whether a failure of a start request leaves it unknown if the service acted on it: no answer
 * (timeout, reset, cut body) or a 5xx. A 4xx is a clear refusal.
 */
export const isAmbiguous = (e: ApiError): boolean =>
  e.kind === 'timeout' || e.kind === 'unreachable' || e.kind === 'server' || e.kind === 'invalid_response';

/** The service could not be reached at all: wait and resume later. */
export const isOffline = (e: ApiError): boolean => e.kind === 'timeout' || e.kind === 'unreachable';

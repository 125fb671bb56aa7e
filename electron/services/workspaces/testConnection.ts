import { createApiClient, isApiError } from '../api/index.ts';
import type { ApiError } from '../api/index.ts';
import type { ConnectionTest } from '../../../shared/ipc/channels/workspaces.ts';

export const originOf = (baseUrl: string) => {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
};

/**
 * "Test connection": asks the service for the workspace's info (GET /workspace). 401 →
 * exactly `Invalid credentials`; unreachable and timeout name the host and what to check; success
 * reports the credits. No retries: the operator is waiting and can press the button again.
 */
export async function testConnection(options: {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}): Promise<ConnectionTest> {
  const host = originOf(options.baseUrl);
  const client = createApiClient({
    baseUrl: options.baseUrl,
    apiKey: async () => options.apiKey,
    timeoutMs: options.timeoutMs,
    maxRetries: 0,
  });
  try {
    const info = await client.getWorkspaceInfo();
    return { ok: true, message: 'Connected', credits: info.credits, workspaceName: info.name };
  } catch (error) {
    if (!isApiError(error)) throw error;
    return {
      ok: false,
      message: describeFailure(error, host, options.timeoutMs),
      credits: null,
      workspaceName: null,
    };
  }
}

/** An ApiError in the operator's words (also used by other domains that call the service). */
export function describeFailure(error: ApiError, host: string, timeoutMs: number): string {
  const status = error.status === undefined ? '' : ` (HTTP ${error.status})`;
  switch (error.kind) {
    case 'unauthorized':
      return 'Invalid credentials';
    case 'unreachable':
      return `Unreachable: ${error.message}. Check the base URL, that the service is running, and your network connection.`;
    case 'timeout':
      return `Timed out: ${host} did not answer within ${Math.round(timeoutMs / 100) / 10} s. Check the base URL and your network connection, then try again.`;
    case 'not_found':
      return `Not found: ${host} has no workspace endpoint under this base URL${status}. Check that the base URL is the service root, ending in /v0.`;
    case 'rate_limited':
      return `Busy: ${host} asked us to slow down${status}. Try again in a moment.`;
    case 'server':
      return `Service error: ${host} reported a problem${status}: ${error.message}`;
    case 'rejected':
      return `Refused: ${host} refused the request${status}: ${error.message}`;
    case 'invalid_response':
      return `Unexpected answer: ${host} answered, but not like the calling service (${error.message}). Check the base URL.`;
    case 'redirect_refused':
      return `Redirect refused: ${error.message}. Check the base URL.`;
  }
}

import type { Connectivity } from './appStore.ts';

export interface ConnectivityView {
  state: 'online' | 'offline' | 'checking' | 'key-rejected' | 'service-error';
  label: 'Online' | 'Offline' | 'Checking…' | 'Key rejected' | 'Service error';
  detail: string;
}

/**
 * What the indicator says. "Online" needs both a network on this computer and the active
 * workspace's service answering; the detail says which part is missing.
 */
export function describeConnectivity(input: {
  browserOnline: boolean;
  connectivity: Connectivity | null;
  workspaceName: string | null;
  isSandbox: boolean;
}): ConnectivityView {
  const name = input.workspaceName ?? 'the active workspace';
  if (!input.browserOnline) {
    return {
      state: 'offline',
      label: 'Offline',
      detail: input.isSandbox
        ? 'This computer has no network. The built-in Sandbox still works.'
        : 'This computer has no network. Work continues locally; launches wait until you are back online.',
    };
  }
  if (input.connectivity === null)
    return { state: 'checking', label: 'Checking…', detail: `Checking whether ${name} answers.` };
  if (!input.connectivity.online) {
    return { state: 'offline', label: 'Offline', detail: `${name} does not answer. Work continues locally.` };
  }
  if (input.connectivity.status === 'key-rejected')
    return {
      state: 'key-rejected',
      label: 'Key rejected',
      detail: `${name} refused its API key${input.connectivity.message ? ` (${input.connectivity.message})` : ''}: enter it again in Settings → Workspaces.`,
    };
  if (input.connectivity.status === 'service-error')
    return {
      state: 'service-error',
      label: 'Service error',
      detail: `${name} answers with an error${input.connectivity.message ? `: ${input.connectivity.message}` : ''}. Work continues locally.`,
    };
  return { state: 'online', label: 'Online', detail: `${name} answers.` };
}

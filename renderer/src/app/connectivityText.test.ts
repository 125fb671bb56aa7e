import { describe, expect, it } from 'vitest';
import { describeConnectivity } from './connectivityText.ts';

const up = { online: true, checkedAt: '2026-11-21T10:00:00Z' };
const down = { online: false, checkedAt: '2026-11-21T10:00:00Z' };

describe('describeConnectivity', () => {
  it('is online only when the computer has a network and the service answers', () => {
    expect(
      describeConnectivity({
        browserOnline: true,
        connectivity: up,
        workspaceName: 'Acme',
        isSandbox: false,
      }),
    ).toMatchObject({
      state: 'online',
      label: 'Online',
      detail: 'Acme answers.',
    });
    expect(
      describeConnectivity({
        browserOnline: true,
        connectivity: down,
        workspaceName: 'Acme',
        isSandbox: false,
      }),
    ).toMatchObject({
      state: 'offline',
      detail: 'Acme does not answer. Work continues locally.',
    });
    expect(
      describeConnectivity({
        browserOnline: false,
        connectivity: up,
        workspaceName: 'Acme',
        isSandbox: false,
      }).label,
    ).toBe('Offline');
  });
  it('says the Sandbox keeps working without a network, and when it has not checked yet', () => {
    expect(
      describeConnectivity({
        browserOnline: false,
        connectivity: up,
        workspaceName: 'Sandbox',
        isSandbox: true,
      }).detail,
    ).toMatch(/Sandbox still works/);
    expect(
      describeConnectivity({
        browserOnline: true,
        connectivity: null,
        workspaceName: null,
        isSandbox: false,
      }),
    ).toMatchObject({
      state: 'checking',
      detail: 'Checking whether the active workspace answers.',
    });
  });
});

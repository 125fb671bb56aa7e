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

describe('describeConnectivity for the active workspace’s key and service', () => {
  const base = { browserOnline: true, workspaceName: 'Acme', isSandbox: false };
  it('says Key rejected and Service error in the same words everywhere', () => {
    expect(
      describeConnectivity({
        ...base,
        connectivity: { ...up, status: 'key-rejected', message: 'Invalid credentials' },
      }),
    ).toEqual({
      state: 'key-rejected',
      label: 'Key rejected',
      detail: 'Acme refused its API key (Invalid credentials): enter it again in Settings → Workspaces.',
    });
    expect(
      describeConnectivity({ ...base, connectivity: { ...up, status: 'service-error', message: 'Boom' } }),
    ).toMatchObject({ state: 'service-error', label: 'Service error' });
    expect(describeConnectivity({ ...base, connectivity: { ...up, status: 'online' } }).label).toBe('Online');
  });
});

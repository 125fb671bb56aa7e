import { describe, expect, it } from 'vitest';
import type { Workspace } from '../../../shared/ipc/channels/workspaces.ts';
import { orderWorkspaces } from './workspaceOrder.ts';

const ws = (id: string, createdAt: string, isSandbox = false): Workspace => ({
  id,
  name: id,
  baseUrl: 'http://127.0.0.1:1/v0',
  isSandbox,
  hasApiKey: true,
  hasBearerToken: false,
  secretStorage: 'keychain',
  createdAt,
  lastTest: null,
});

describe('orderWorkspaces', () => {
  it('puts the Sandbox first, then by creation time, without changing the input', () => {
    const input = [ws('b', '2026-01-02'), ws('sandbox', '2026-01-03', true), ws('a', '2026-01-01')];
    expect(orderWorkspaces(input).map((w) => w.id)).toEqual(['sandbox', 'a', 'b']);
    expect(input.map((w) => w.id)).toEqual(['b', 'sandbox', 'a']);
  });
});

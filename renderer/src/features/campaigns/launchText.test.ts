import { describe, expect, it } from 'vitest';
import type { LaunchView } from '../../../../shared/ipc/channels/campaigns.ts';
import { launchRowsText, stepStatus, stepsOf } from './launchText.ts';

const launch = (patch: Partial<LaunchView>): LaunchView => ({
  id: 'l1',
  workspaceId: 'w',
  name: 'n',
  listId: 1,
  agentId: 'a',
  flow: 'large',
  state: 'pending',
  step: 'upload',
  serviceId: null,
  valid: 1,
  invalid: 0,
  serviceInvalid: null,
  rejectsUrl: null,
  rowsServiceWillDrop: null,
  arrived: null,
  message: null,
  createdAt: '',
  updatedAt: '',
  draftId: null,
  terminatedAt: null,
  ...patch,
});

describe('launch steps', () => {
  it('lists the steps of each flow', () => {
    expect(stepsOf('large')).toEqual(['upload', 'upload-status', 'balance', 'make-call-async']);
    expect(stepsOf('standard')).toEqual(['save', 'start']);
  });

  it('marks the steps before the current one done and every step done once started', () => {
    expect(stepStatus(launch({ step: 'balance' })).map((s) => s.status)).toEqual([
      'done',
      'done',
      'current',
      'todo',
    ]);
    expect(stepStatus(launch({ step: 'verify-start', flow: 'standard' })).map((s) => s.status)).toEqual([
      'done',
      'current',
    ]);
    expect(
      stepStatus(launch({ step: 'start', flow: 'standard', state: 'started' })).map((s) => s.status),
    ).toEqual(['done', 'done']);
  });

  it("marks a refused launch's step failed (not current) and the steps after it not started", () => {
    expect(stepStatus(launch({ step: 'balance', state: 'failed' })).map((s) => s.status)).toEqual([
      'done',
      'done',
      'failed',
      'todo',
    ]);
    expect(
      stepStatus(launch({ step: 'save', flow: 'standard', state: 'failed' })).map((s) => s.status),
    ).toEqual(['failed', 'todo']);
  });
});

describe('a launch’s rows in words', () => {
  const l = { valid: 41, invalid: 1, rowsServiceWillDrop: 4, serviceInvalid: null, arrived: null };
  it('counts the calls as the plan does: the rows sent less the rows the service will drop', () => {
    expect(launchRowsText(l)).toBe('37 calls to place · 4 rows the service will drop · 1 invalid (not sent)');
    expect(launchRowsText({ ...l, rowsServiceWillDrop: null })).toBe(
      '41 calls to place · 1 invalid (not sent)',
    );
  });
  it('once the service answered, its own figures', () => {
    expect(launchRowsText({ ...l, serviceInvalid: 5, arrived: 36 })).toBe(
      '36 calls to place · 1 invalid (not sent) · 5 refused by the service',
    );
    expect(launchRowsText({ ...l, valid: 1, invalid: 0, serviceInvalid: 0, arrived: null })).toBe(
      '1 call to place · 0 invalid (not sent) · 0 refused by the service',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { contract } from '../../../../shared/ipc/contract.ts';
import type { EditSubscription } from './subscriptionForm.ts';
import {
  emptySubscription,
  fromView,
  locateField,
  maskValue,
  toInputs,
  validateSubscription,
} from './subscriptionForm.ts';

const good: EditSubscription = {
  from: null,
  eventTypes: ['call_completed'],
  callbackUrl: 'https://hooks.example.com/x',
  method: 'POST',
  headers: [{ name: 'X-Token', value: 'secret-value-12', masked: null }],
};

describe('validateSubscription', () => {
  it('accepts a complete subscription', () => {
    expect(validateSubscription(good)).toEqual({});
  });

  it('names the field of each problem', () => {
    const errors = validateSubscription({
      from: null,
      eventTypes: [],
      callbackUrl: 'ftp://example.com',
      method: 'GET',
      headers: [
        { name: '', value: 'a', masked: null },
        { name: 'Bad Name', value: '', masked: null },
        { name: 'X-A', value: 'a', masked: null },
        { name: 'x-a', value: 'line\nbreak', masked: null },
      ],
    });
    expect(errors).toEqual({
      eventTypes: 'Event types: choose at least one event.',
      callbackUrl: 'Callback URL must be a full http:// or https:// address.',
      method: 'Method must be POST, PUT or PATCH.',
      'headers.0.name': 'Header 1 name is required.',
      'headers.1.name': expect.stringMatching(/^Header 2 name “Bad Name” may only hold/),
      'headers.1.value': 'Header 2 value is required.',
      'headers.3.name': 'Header 4 name “x-a” is given twice.',
      'headers.3.value': 'Header 4 value must be one line.',
    });
    expect(validateSubscription({ ...good, callbackUrl: ' ' }).callbackUrl).toBe('Callback URL is required.');
    expect(validateSubscription({ ...good, callbackUrl: 'example.com/hook' }).callbackUrl).toMatch(
      /^Callback URL/,
    );
  });

  it('lets a stored header keep its value when left blank', () => {
    expect(
      validateSubscription({ ...good, headers: [{ name: 'X-Token', value: '', masked: '••••ab' }] }),
    ).toEqual({});
  });
});

describe('requests', () => {
  it('builds inputs the contract accepts, keeping stored header values by leaving them out', () => {
    const stored = fromView({
      key: 'c:0',
      eventTypes: ['call_started'],
      callbackUrl: 'http://127.0.0.1:9/h',
      method: 'PUT',
      headers: [{ name: 'Authorization', masked: '••••••ab' }],
    });
    const inputs = toInputs([stored, { ...good, callbackUrl: ' https://x.example/h ' }]);
    expect(inputs).toEqual([
      {
        from: 'c:0',
        eventTypes: ['call_started'],
        callbackUrl: 'http://127.0.0.1:9/h',
        method: 'PUT',
        headers: [{ name: 'Authorization' }],
      },
      {
        eventTypes: ['call_completed'],
        callbackUrl: 'https://x.example/h',
        method: 'POST',
        headers: [{ name: 'X-Token', value: 'secret-value-12' }],
      },
    ]);
    expect(
      contract['agents:save-subscriptions'].request.safeParse({ agentId: 'a1', subscriptions: inputs })
        .success,
    ).toBe(true);
  });

  it('starts a new subscription with the recommended event', () => {
    expect(emptySubscription().eventTypes).toEqual(['all_processing_completed']);
  });

  it('masks typed values and shows stored ones as the back end masked them', () => {
    expect(maskValue({ name: 'a', value: 'secret-value-12', masked: null })).toBe('••••••••12');
    expect(maskValue({ name: 'a', value: 'abc', masked: null })).toBe('••••');
    expect(maskValue({ name: 'a', value: '', masked: '••••ab' })).toBe('••••ab');
  });

  it('reads back-end fields', () => {
    expect(locateField('subscriptions.2.callbackUrl')).toEqual({ index: 2, field: 'callbackUrl' });
    expect(locateField('subscriptions.0')).toEqual({ index: 0, field: '' });
    expect(locateField('agentId')).toBeNull();
    expect(locateField(undefined)).toBeNull();
  });
});

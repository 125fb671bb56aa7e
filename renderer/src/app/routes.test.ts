import { describe, expect, it } from 'vitest';
import { routeFromHash } from './routes.ts';

describe('routeFromHash', () => {
  it('maps hashes to pages', () => {
    expect(routeFromHash('#/settings')).toBe('settings');
    expect(routeFromHash('#/calls/123')).toBe('calls');
    expect(routeFromHash('#agents')).toBe('agents');
  });
  it('falls back to Contacts for empty or unknown hashes', () => {
    expect(routeFromHash('')).toBe('contacts');
    expect(routeFromHash('#/')).toBe('contacts');
    expect(routeFromHash('#/nope')).toBe('contacts');
    expect(routeFromHash('#token=abc')).toBe('contacts');
  });
});

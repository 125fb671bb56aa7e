import { describe, expect, it } from 'vitest';
import { takeAccessToken, tokenFromHash } from './accessToken.ts';

function fakeHistory() {
  const calls: string[] = [];
  return {
    calls,
    history: {
      state: null,
      replaceState: (_d: unknown, _u: string, url?: string) => void calls.push(url ?? ''),
    },
  };
}

describe('access token from the address bar', () => {
  it('reads the token from the fragment', () => {
    expect(tokenFromHash('#token=abc123')).toBe('abc123');
    expect(tokenFromHash('#token=a%2Bb&x=1')).toBe('a+b');
    expect(tokenFromHash('token=zz')).toBe('zz');
  });

  it('returns null for routes, empty or missing tokens', () => {
    expect(tokenFromHash('')).toBeNull();
    expect(tokenFromHash('#/settings')).toBeNull();
    expect(tokenFromHash('#token=')).toBeNull();
  });

  it('removes the token from the address bar and keeps path and query', () => {
    const { calls, history } = fakeHistory();
    const token = takeAccessToken({ hash: '#token=s3cret', pathname: '/', search: '?a=1' }, history);
    expect(token).toBe('s3cret');
    expect(calls).toEqual(['/?a=1#/']);
  });

  it('also clears an empty token fragment, and leaves ordinary routes alone', () => {
    const { calls, history } = fakeHistory();
    expect(takeAccessToken({ hash: '#token=', pathname: '/', search: '' }, history)).toBeNull();
    expect(calls).toEqual(['/#/']);
    expect(takeAccessToken({ hash: '#/calls', pathname: '/', search: '' }, history)).toBeNull();
    expect(calls).toHaveLength(1);
  });
});

import { describe, expect, it } from 'vitest';
import { outgoingHeaders } from './deliver.ts';
import { callbackTarget, maskHeaders, parseSubscriptions, subscriptionTargets } from './targets.ts';

describe('webhook targets', () => {
  const subs = parseSubscriptions(
    JSON.stringify([
      {
        event_type: ['call_started', 'call_completed'],
        callback_url: 'https://a.test/h',
        headers: { X: '1' },
        method_type: 'PUT',
      },
      { event_type: 'all_processing_completed', callback_url: 'https://b.test/h' },
    ]),
  );

  it('picks the subscriptions that list the event type, with their method and headers', () => {
    expect(subscriptionTargets(subs, 'call_completed')).toEqual([
      { source: 'subscription', url: 'https://a.test/h', method: 'PUT', headers: { X: '1' }, json: true },
    ]);
    // An old-style single event_type string counts; the method defaults to POST.
    expect(subscriptionTargets(subs, 'all_processing_completed')).toEqual([
      { source: 'subscription', url: 'https://b.test/h', method: 'POST', headers: {}, json: true },
    ]);
    expect(subscriptionTargets(subs, 'recording_completed')).toEqual([]);
    expect(parseSubscriptions('not json')).toEqual([]);
  });

  it('adds callback_args params to the query (keeping the URL own) and sends its headers', () => {
    const t = callbackTarget(
      'https://c.test/cb?a=1',
      JSON.stringify({ headers: { 'X-Token': 't' }, params: { ref: 'r 1', n: 2, ok: true } }),
    );
    expect(t).toEqual({
      source: 'callback',
      url: 'https://c.test/cb?a=1&ref=r+1&n=2&ok=true',
      method: 'POST',
      headers: { 'X-Token': 't' },
      json: true,
    });
    // The individual call's per-call callback goes without our JSON content type.
    expect(callbackTarget('https://c.test/cb', null, false)?.json).toBe(false);
    expect(callbackTarget('not a url', null)).toBeNull();
  });

  it('masks secrets in the log and defaults the content type without overriding the subscriber', () => {
    expect(maskHeaders({ Authorization: 'Bearer abcdef', 'X-Api-Key': 'k-123456', 'X-Env': 'test' })).toEqual(
      {
        Authorization: 'Bear***',
        'X-Api-Key': 'k-12***',
        'X-Env': 'test',
      },
    );
    expect(outgoingHeaders({})).toMatchObject({ 'content-type': 'application/json' });
    expect(outgoingHeaders({}, false)).toEqual({ 'user-agent': 'campaign-desk-sandbox-webhooks/1' });
    expect(outgoingHeaders({ 'Content-Type': 'text/plain' })).toEqual({
      'user-agent': 'campaign-desk-sandbox-webhooks/1',
      'Content-Type': 'text/plain',
    });
  });
});

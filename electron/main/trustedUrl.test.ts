import { describe, expect, it } from 'vitest';
import { externalUrl, isAppUrl } from './trustedUrl.ts';

describe('trusted URLs', () => {
  it('recognises only our own app://desk page', () => {
    expect(isAppUrl('app://desk/index.html')).toBe(true);
    expect(isAppUrl('app://desk/')).toBe(true);
    expect(isAppUrl('app://desk.evil/index.html')).toBe(false);
    expect(isAppUrl('app://evil/index.html')).toBe(false);
    expect(isAppUrl('https://desk/index.html')).toBe(false);
    expect(isAppUrl('file:///app://desk/')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
  });

  it('opens only https links, parsed, without credentials', () => {
    expect(externalUrl('https://docs.example.com/page?q=1')).toBe('https://docs.example.com/page?q=1');
    expect(externalUrl('http://docs.example.com')).toBeNull();
    expect(externalUrl('file:///etc/passwd')).toBeNull();
    expect(externalUrl('javascript:alert(1)')).toBeNull();
    expect(externalUrl('smb://server/share')).toBeNull();
    expect(externalUrl('https://user:pw@evil.example')).toBeNull();
    expect(externalUrl('https://bank.example@evil.example')).toBeNull();
    expect(externalUrl('https:///nohost')).toBe('https://nohost/'); // URL normalises it to a host
    expect(externalUrl(' https://x.example ')).toBe('https://x.example/');
    expect(externalUrl('')).toBeNull();
  });
});

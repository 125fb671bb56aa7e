import { describe, expect, it } from 'vitest';
import { hasUrlCredentials, maskUrlCredentials } from './common.ts';

describe('webhook URL credentials', () => {
  it.each([
    ['https://user:pass@hooks.example.com/a', true],
    ['https://token@hooks.example.com/a', true],
    ['http://:pass@127.0.0.1:9/x', true],
    ['  https://user:pass@hooks.example.com  ', true],
    ['https://us er:p@ss@host/a', true],
    ['https://hooks.example.com/a?next=user@example.com', false],
    ['https://hooks.example.com/a#me@there', false],
    ['https://hooks.example.com/a', false],
    ['not a url', false],
  ])('%s has credentials: %s', (url, expected) => {
    expect(hasUrlCredentials(url)).toBe(expected);
  });

  it('masks the user name and password for display, and leaves other URLs as they are', () => {
    expect(maskUrlCredentials('https://user:pass@hooks.example.com/x?a=b@c')).toBe(
      'https://•••@hooks.example.com/x?a=b@c',
    );
    expect(maskUrlCredentials('https://hooks.example.com/x?mail=a@b.c')).toBe(
      'https://hooks.example.com/x?mail=a@b.c',
    );
    expect(hasUrlCredentials(maskUrlCredentials('https://user:pass@hooks.example.com/x'))).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { resolveDefaultCountry } from './country.ts';

describe('resolveDefaultCountry', () => {
  it('takes ISO codes in any case and dialling prefixes with or without "+"', () => {
    expect(resolveDefaultCountry('IN')).toEqual({ country: 'IN', callingCode: '91' });
    expect(resolveDefaultCountry(' in ')).toEqual({ country: 'IN', callingCode: '91' });
    expect(resolveDefaultCountry('+91')).toEqual({ country: 'IN', callingCode: '91' });
    expect(resolveDefaultCountry('91')).toEqual({ country: 'IN', callingCode: '91' });
  });
  it('maps a shared dialling prefix to its main country', () => {
    expect(resolveDefaultCountry('+1')).toEqual({ country: 'US', callingCode: '1' });
    expect(resolveDefaultCountry('+44')).toEqual({ country: 'GB', callingCode: '44' });
  });
  it('refuses unknown countries, non-geographic prefixes and junk', () => {
    for (const input of ['XX', '+999', '+800', 'India', '', '+', '+9111'])
      expect(resolveDefaultCountry(input)).toBeNull();
  });
});

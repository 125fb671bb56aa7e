import examples from 'libphonenumber-js/examples.mobile.json';
import parsePhoneNumberFromString, { getCountries, getCountryCallingCode } from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { compileFastPath, FALLBACK } from './fastPath.ts';
import { libraryE164 } from './libraryPhone.ts';
import { createPlanRegistry } from './metadataPlans.ts';
import { createPhoneNormalizer } from './normalizePhone.ts';
import { seededRandom } from '../../testing/seededRandom.ts';

describe('phone fast path: known numbers, default IN', () => {
  const fast = compileFastPath(createPlanRegistry(), 'IN');
  const cases: Array<[string, string | null]> = [
    ['9876543210', '+919876543210'],
    ['09876543210', '+919876543210'], // national prefix
    ['+91 98765 43210', '+919876543210'],
    ['+91-98765-43210', '+919876543210'],
    ['0091 9876543210', '+919876543210'], // IDD from India
    ['919876543210', '+919876543210'], // country code without "+"
    ['91-9876543210', '+919876543210'],
    ['98765-43210', '+919876543210'],
    ['+1 415-823-4567', '+14158234567'],
    ['+91 22 2345 6789', '+912223456789'], // Mumbai landline
    ['022 2345 6789', '+912223456789'],
    ['12345', null],
    ['0000000000', null],
    ['+91 864369271490', null], // too long
    ['+0 123', null],
    ['N/A', null], // no digit at all: not a number
    ['98765abcde', null], // the library cuts at the last digit: "98765", too short
  ];
  it.each(cases)('%s → %s, as the library says', (input, expected) => {
    expect(libraryE164(input, 'IN')).toBe(expected);
    expect(fast(input)).toBe(expected);
  });

  it('a US number written without +1 is (validly) an Indian landline for both: product guard needed, not a parser bug', () => {
    expect(libraryE164('(415) 823-4567', 'IN')).toBe('+914158234567');
    expect(fast('(415) 823-4567')).toBe('+914158234567');
  });

  it('leaves to the library what it does not replay: extensions, letters inside, other scripts, non-geographic codes', () => {
    for (const input of [
      '98765 43210 ext 12',
      '98765O1234',
      '९८७६५४३२१०',
      '+800 1234 5678',
      '+91 98765 43210;ext=1',
    ]) {
      expect(fast(input)).toBe(FALLBACK);
    }
  });

  it('cuts text around a number like the library does ("tel:", labels, trailing words)', () => {
    for (const input of [
      'tel:+91-98765-43210',
      'Mob: 98765 43210',
      '98765 43210 (home)',
      'call 09876543210 now',
    ]) {
      expect(fast(input)).toBe(libraryE164(input, 'IN'));
      expect(fast(input)).not.toBe(FALLBACK);
    }
  });
});

describe('phone normaliser agrees with libphonenumber-js max', () => {
  it('on mutated example numbers of every country, in every way people write them', () => {
    const random = seededRandom(20261121);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const digit = (): string => String(Math.floor(random() * 10));
    const countries = getCountries();
    const byCountry = examples as Record<string, string>;
    let checked = 0;
    let fastAnswers = 0;
    const disagreements: string[] = [];
    for (const defaultCountry of ['IN', 'US', 'GB', 'DE', 'BR', 'AE', 'ID', 'RU'] as CountryCode[]) {
      const normaliser = createPhoneNormalizer(defaultCountry);
      for (let i = 0; i < 2500; i++) {
        const country = pick(countries);
        let national = byCountry[country] ?? '';
        if (!national) continue;
        // Mutate: change digits, drop or add one.
        const mutation = random();
        if (mutation < 0.4) national = national.slice(0, -2) + digit() + digit();
        else if (mutation < 0.5) national = national.slice(0, -1);
        else if (mutation < 0.6) national += digit();
        const cc = getCountryCallingCode(country);
        const spaced = national.replace(/(\d{3})(?=\d)/g, '$1 ');
        const text = pick([
          national,
          `0${national}`,
          `+${cc}${national}`,
          `+${cc} ${spaced}`,
          `+${cc}-${national.slice(0, 3)}-${national.slice(3)}`,
          `00${cc}${national}`,
          `011 ${cc} ${national}`,
          `${cc}${national}`,
          `(${national.slice(0, 3)}) ${national.slice(3)}`,
          `${national}.0`,
          ` ${spaced} `,
          `${national}x`,
          `${national} ext. 5`,
        ]);
        const mine = normaliser.toE164(text);
        const reference = libraryE164(text, defaultCountry);
        checked++;
        if (mine !== reference)
          disagreements.push(`${defaultCountry} ${JSON.stringify(text)}: ${mine} vs ${reference}`);
      }
      fastAnswers += normaliser.stats.fast;
    }
    expect(disagreements).toEqual([]);
    expect(checked).toBeGreaterThan(15_000);
    // Most of these go through the fast path (the point of it); the rest through the library.
    expect(fastAnswers / checked).toBeGreaterThan(0.7);
  });

  it('on random digit strings behind every kind of prefix (national, IDD, calling code, zeros)', () => {
    const random = seededRandom(42);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const digits = (n: number): string =>
      Array.from({ length: n }, () => String(Math.floor(random() * 10))).join('');
    let checked = 0;
    const disagreements: string[] = [];
    for (const defaultCountry of [
      'IN',
      'US',
      'GB',
      'RU',
      'HU',
      'IT',
      'BR',
      'AR',
      'MX',
      'CO',
      'AU',
    ] as CountryCode[]) {
      const cc = getCountryCallingCode(defaultCountry);
      const normaliser = createPhoneNormalizer(defaultCountry);
      const prefixes = [
        '',
        '0',
        '00',
        '000',
        '01',
        '011',
        '8',
        '810',
        '1',
        '06',
        `0${cc}`,
        cc,
        `00${cc}`,
        `00${cc}0`,
        `+${cc}`,
        `+${cc}0`,
        '+0',
        '+1',
        '+44',
        '+7',
        '+880',
      ];
      for (let i = 0; i < 2000; i++) {
        const text = pick(prefixes) + pick(['', ' ', '-']) + digits(3 + Math.floor(random() * 13));
        const mine = normaliser.toE164(text);
        const reference = libraryE164(text, defaultCountry);
        checked++;
        if (mine !== reference)
          disagreements.push(`${defaultCountry} ${JSON.stringify(text)}: ${mine} vs ${reference}`);
      }
    }
    expect(disagreements).toEqual([]);
    expect(checked).toBe(22_000);
  });

  it('on texts around numbers: labels, letters, punctuation, other scripts', () => {
    const random = seededRandom(7);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const normaliser = createPhoneNormalizer('IN');
    const disagreements: string[] = [];
    const numbers = ['9876543210', '+91 98765 43210', '022 2345 6789', '12345', '+1 415 823 4567'];
    const around = [
      '',
      'Mob: ',
      'tel:',
      '(',
      '#',
      'x',
      'ext ',
      ';',
      '/',
      '~',
      'N/A ',
      '٠',
      '\u00a0',
      '  ',
      '"',
      "'",
    ];
    for (let i = 0; i < 3000; i++) {
      const text = pick(around) + pick(numbers) + pick(around) + pick(['', pick(numbers)]);
      const mine = normaliser.toE164(text);
      const reference = libraryE164(text, 'IN');
      if (mine !== reference) disagreements.push(`${JSON.stringify(text)}: ${mine} vs ${reference}`);
    }
    expect(disagreements).toEqual([]);
  });

  // Inputs that tell apart each rule of the replay (found by mutating the fast path and searching
  // for a differing answer): dropping any one of those rules makes one of these fail.
  it.each([
    ['JE', '000607'], // IDD followed by 0: not an international number (here: a transform rule → library)
    ['JP', '00379898172371414'], // national prefix kept when stripping it breaks the pattern (19-digit E.164)
    ['IM', '441926827202'], // too long as national: the leading digits are the calling code
    ['SJ', '4752277705'],
  ] as Array<[CountryCode, string]>)('%s %s', (country, text) => {
    expect(createPhoneNormalizer(country).toE164(text)).toBe(libraryE164(text, country));
    expect(libraryE164(text, country)).not.toBeNull();
  });

  it('keeps the fast path busy on realistic input', () => {
    const normaliser = createPhoneNormalizer('IN');
    for (const text of ['9876543210', '+91 98765 43210', '098765 43210', 'N/A', '+1 415-823-4567'])
      normaliser.toE164(text);
    expect(normaliser.stats).toEqual({ fast: 5, library: 0 });
  });
});

describe('landline check (phone_landline)', () => {
  it('agrees with the library\'s getType() === "FIXED_LINE" on mutated example numbers of every country', () => {
    const random = seededRandom(11);
    const normaliser = createPhoneNormalizer('IN');
    const mobile = examples as Record<string, string>;
    let landlines = 0;
    let checked = 0;
    const wrong: string[] = [];
    for (const country of getCountries()) {
      const example = mobile[country];
      if (!example) continue;
      // Keep a prefix of the example, randomise the rest: mobiles, fixed lines and others appear.
      for (let i = 0; i < 60; i++) {
        const keep = Math.floor(random() * example.length);
        let national = example.slice(0, keep);
        while (national.length < example.length) national += String(Math.floor(random() * 10));
        const parsed = parsePhoneNumberFromString(`+${getCountryCallingCode(country)}${national}`);
        if (!parsed?.isValid()) continue;
        checked++;
        const library = parsed.getType() === 'FIXED_LINE';
        if (library) landlines++;
        if (normaliser.isLandline(parsed.number) !== library) wrong.push(parsed.number);
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(checked).toBeGreaterThan(3000);
    expect(landlines).toBeGreaterThan(200);
    // The example: a US number typed without +1, read under IN.
    const us = normaliser.toE164('(206) 555-0123') as string;
    expect([us, normaliser.isLandline(us)]).toEqual(['+912065550123', true]);
    expect(normaliser.isLandline('+12068234567')).toBe(false); // fixed line or mobile
    expect(normaliser.isLandline('+919876543210')).toBe(false);
  });
});

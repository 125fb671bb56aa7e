import { describe, expect, it } from 'vitest';
import { generateContacts } from '../../testing/contactsGenerator.ts';
import { CONFIDENT, createDecoder, detectEncoding, parseEncoding, utf8Length } from './encoding.ts';
import { ContactsError } from './errors.ts';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const utf16 = (text: string, bigEndian: boolean, bom = true): Uint8Array => {
  const units = (bom ? '\ufeff' : '') + text;
  const out = new Uint8Array(units.length * 2);
  for (let i = 0; i < units.length; i++) {
    const c = units.charCodeAt(i);
    out[i * 2] = bigEndian ? c >> 8 : c & 0xff;
    out[i * 2 + 1] = bigEndian ? c & 0xff : c >> 8;
  }
  return out;
};
const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const decodeAll = (bytes: Uint8Array, chunk: number, guess = detectEncoding(bytes, true)): string => {
  const decoder = createDecoder(guess.encoding, guess.bomLength);
  let text = '';
  for (let at = 0; at < bytes.length; at += chunk) text += decoder.push(bytes.subarray(at, at + chunk));
  return text + decoder.end();
};

describe('encoding detection', () => {
  it('reads byte-order marks and never lets one reach the text', () => {
    const text = 'Name,Mobile Number\nJosé,9876543210\n';
    for (const [bytes, encoding] of [
      [concat(new Uint8Array([0xef, 0xbb, 0xbf]), utf8(text)), 'utf-8'],
      [utf16(text, false), 'utf-16le'],
      [utf16(text, true), 'utf-16be'],
    ] as const) {
      const guess = detectEncoding(bytes, true);
      expect(guess).toMatchObject({ encoding, source: 'bom' });
      expect(decodeAll(bytes, 5)).toBe(text);
    }
  });

  it('spots UTF-16 without a BOM by its zero bytes', () => {
    expect(detectEncoding(utf16('Name,Phone\nA,1\n', false, false), true).encoding).toBe('utf-16le');
    expect(detectEncoding(utf16('Name,Phone\nA,1\n', true, false), true).encoding).toBe('utf-16be');
  });

  it('takes valid UTF-8 as UTF-8 even when the sample ends inside a character', () => {
    const bytes = utf8('Name\nराहुल\n');
    expect(detectEncoding(bytes.subarray(0, 8), false).encoding).toBe('utf-8'); // cut inside "रा"
  });

  it('falls back to Windows-1252 for bytes that are not UTF-8', () => {
    const bytes = new Uint8Array([...utf8('Name\nJos'), 0xe9, 0x2c, 0x80, 0x0a]); // "José,€" in cp1252
    expect(detectEncoding(bytes, true)).toMatchObject({ encoding: 'windows-1252', source: 'detected' });
    expect(decodeAll(bytes, 3)).toBe('Name\nJosé,€\n');
  });

  it('an override wins, and a BOM is still skipped', () => {
    const bytes = concat(new Uint8Array([0xef, 0xbb, 0xbf]), utf8('a,b\n'));
    const guess = detectEncoding(bytes, true, 'windows-1252');
    expect(guess).toEqual({
      encoding: 'windows-1252',
      source: 'override',
      bomLength: 3,
      confidence: null,
      uncertain: false,
      note: null,
    });
    expect(decodeAll(bytes, 2, guess)).toBe('a,b\n');
  });
});

describe("encodings outside UTF-8/16 and Windows-1252 (issue 25): the generator's files", () => {
  it.each([
    ['big5', 'Big5 (Traditional Chinese)'],
    ['shift_jis', 'Shift_JIS (Japanese)'],
    ['euc-kr', 'EUC-KR (Korean)'],
    ['gb18030', 'GBK / GB18030 (Simplified Chinese)'],
  ] as const)('%s is detected on the head of the file, with the confidence in the note', (encoding, name) => {
    const { bytes } = generateContacts({ rows: 2000, seed: 5, encoding });
    const guess = detectEncoding(bytes.subarray(0, 1 << 20), false);
    expect([guess.encoding, guess.source]).toEqual([encoding, 'detected']);
    expect(guess.confidence).toBeGreaterThanOrEqual(CONFIDENT);
    expect(guess.note).toContain(`detected as ${name}`);
    expect(guess.note).toMatch(/\d+%/);
  });

  it('says when it is not sure (Cyrillic or Central European names among English text)', () => {
    for (const encoding of ['windows-1251', 'iso-8859-2'] as const) {
      const { bytes } = generateContacts({ rows: 2000, seed: 5, encoding });
      const guess = detectEncoding(bytes.subarray(0, 1 << 20), false);
      expect(guess.uncertain).toBe(true);
      expect(guess.note).toMatch(/low confidence \(\d+%/);
      expect(guess.note).toContain('check the names before uploading');
    }
  });
});

describe('streaming decoder', () => {
  it('never breaks a multi-byte character split across chunks (every split point)', () => {
    const text = 'राहुल शर्मा,José,😀 ok,₹ 1,25,000\n';
    const bytes = utf8(text);
    for (let chunk = 1; chunk <= 7; chunk++) expect(decodeAll(bytes, chunk)).toBe(text);
  });

  it('reports invalid UTF-8 found later in the file, with where', () => {
    const decoder = createDecoder('utf-8', 0);
    decoder.push(utf8('Name\nRahul\n'));
    expect(() => decoder.push(new Uint8Array([0x41, 0xff, 0x0a]))).toThrow(ContactsError);
    try {
      createDecoder('utf-8', 0).push(new Uint8Array([0xc3, 0x28]));
    } catch (error) {
      expect((error as ContactsError).code).toBe('invalid_utf8');
      expect((error as Error).message).toMatch(/not valid UTF-8 \(near byte 0\)/);
    }
  });
});

describe('helpers', () => {
  it('parses --encoding names', () => {
    expect(parseEncoding('UTF8')).toBe('utf-8');
    expect(parseEncoding('utf_16le')).toBe('utf-16le');
    expect(parseEncoding('latin1')).toBe('windows-1252');
    expect(parseEncoding('cp1252')).toBe('windows-1252');
    expect(parseEncoding('ebcdic')).toBeNull();
    expect(parseEncoding('GBK')).toBe('gb18030');
    expect(parseEncoding('Shift_JIS')).toBe('shift_jis');
    expect(parseEncoding('big5')).toBe('big5');
    expect(parseEncoding('EUC-KR')).toBe('euc-kr');
    expect(parseEncoding('cp1251')).toBe('windows-1251');
  });

  it('counts UTF-8 bytes like TextEncoder', () => {
    for (const text of ['abc', 'José', 'राहुल', '😀x', '₹ 1,25,000', '']) {
      expect(utf8Length(text, 0, text.length)).toBe(utf8(text).length);
    }
    expect(utf8Length('aé😀b', 1, 4)).toBe(utf8('é😀').length);
  });
});

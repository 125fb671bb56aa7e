import { describe, expect, it } from 'vitest';
import { parseRecords } from './parseRecords.ts';
import { createBlockSplitter, findCut } from './splitBlocks.ts';
import type { ByteBlock, Delimiter, Newline } from './types.ts';
import { seededRandom } from '../../testing/seededRandom.ts';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** A messy but RFC 4180-regular CSV: quoted fields with delimiters, doubled quotes, line breaks, blanks, non-ASCII. */
function messyCsv(random: () => number, rows: number, delimiter: Delimiter, newline: Newline): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const plain = ['Rahul', '9876543210', 'राहुल शर्मा', 'José', '₹ 500', '', '😀', 'x y'];
  const quoted = [
    `a${delimiter}b`,
    'say ""hi""',
    'line\nbreak',
    'crlf\r\ninside',
    '',
    `"${delimiter}"`.replace(/"/g, '""'),
  ];
  let text = 'Name' + delimiter + 'Mobile Number' + delimiter + 'Notes' + newline;
  for (let r = 0; r < rows; r++) {
    if (random() < 0.05) {
      text += newline; // blank line
      continue;
    }
    const cells = [0, 1, 2].map(() => (random() < 0.3 ? `"${pick(quoted)}"` : pick(plain)));
    text += cells.join(delimiter) + newline;
  }
  return random() < 0.5 ? text : text.slice(0, -newline.length); // with or without a final break
}

function split(bytes: Uint8Array, delimiter: Delimiter, newline: Newline, blockBytes: number, chunk: number) {
  const splitter = createBlockSplitter({ delimiter, newline, blockBytes });
  const blocks: ByteBlock[] = [];
  for (let at = 0; at < bytes.length; at += chunk)
    blocks.push(...splitter.push(bytes.subarray(at, at + chunk)));
  blocks.push(...splitter.end());
  return { blocks, irregular: splitter.irregular };
}

describe('block splitter', () => {
  it('cuts only at record boundaries: blocks parse to exactly the records of the whole file', () => {
    const random = seededRandom(99);
    for (let round = 0; round < 60; round++) {
      const delimiter = ([',', ';', '\t', '|'] as const)[round % 4] as Delimiter;
      const newline = (['\n', '\r\n'] as const)[Math.floor(round / 4) % 2] as Newline;
      const text = messyCsv(random, 40 + Math.floor(random() * 60), delimiter, newline);
      const bytes = utf8(text);
      const { blocks, irregular } = split(
        bytes,
        delimiter,
        newline,
        1 + Math.floor(random() * 300),
        1 + Math.floor(random() * 97),
      );
      expect(irregular).toBeNull();
      expect(blocks.map((b) => b.seq)).toEqual(blocks.map((_, i) => i));
      expect(decode(Uint8Array.from(blocks.flatMap((b) => [...b.bytes])))).toBe(text);
      const pieces = blocks.flatMap((b) => parseRecords(decode(b.bytes), delimiter, newline));
      expect(pieces).toEqual(parseRecords(text, delimiter, newline));
    }
  });

  it('makes blocks of about the asked size', () => {
    const text = messyCsv(seededRandom(5), 2000, ',', '\n');
    const { blocks } = split(utf8(text), ',', '\n', 4096, 1000);
    expect(blocks.length).toBeGreaterThan(10);
    for (const b of blocks.slice(0, -1)) expect(b.bytes.length).toBeGreaterThanOrEqual(4096);
  });

  it.each([
    [
      'a bare quote inside an unquoted field',
      'a,b\nx,5" screen,y\nc,d\n',
      'a quote inside an unquoted field',
    ],
  ])('stops at %s (the host then reads the rest sequentially)', (_name, text, reason) => {
    const newline = text.includes('\r\n') ? '\r\n' : '\n';
    const { blocks, irregular } = split(utf8(text), ',', newline, 1, 3);
    expect(irregular).toBe(reason);
    // Whatever was cut before is whole records.
    for (const b of blocks) expect(decode(b.bytes).endsWith(newline)).toBe(true);
  });

  it.each([
    ['never closed', 'a,b\n"x,y\nc,d\n', '"x,y\n', 0],
    ['closed only 100 lines later', `a,b\nx,"stray\n${'1,2\n'.repeat(100)}"q",3\n`, 'x,"stray\n', 2],
    ["closed by a later field's opening quote", 'a,b\nx,"y\n1,2\n"Doe, J",5\n', 'x,"y\n', 2],
    ['with text after its closing quote', 'a,b\n"x"y,z\nc,d\n', '"x"y,z\n', 0],
  ])(
    'cuts out the line of a stray quote (%s) as a block of its own; the rest splits as usual',
    (_n, text, line, quote) => {
      for (const [blockBytes, chunk] of [
        [1, 3],
        [1 << 20, 1 << 20],
      ] as const) {
        const { blocks, irregular } = split(utf8(text), ',', '\n', blockBytes, chunk);
        expect(irregular).toBeNull();
        const strays = blocks.filter((b) => b.strayQuote !== undefined);
        expect(strays.map((b) => [decode(b.bytes), b.strayQuote])).toEqual([[line, quote]]);
        expect(blocks.map((b) => decode(b.bytes)).join('')).toBe(text);
        expect(blocks.map((b) => b.seq)).toEqual(blocks.map((_, i) => i));
      }
    },
  );

  it('gives back the unsplit rest after an irregularity', () => {
    const splitter = createBlockSplitter({ delimiter: ',', newline: '\n', blockBytes: 4 });
    const blocks = splitter.push(utf8('a,b\nc,d\nx,5" tv\ne,f\n'));
    expect(splitter.irregular).not.toBeNull();
    const rest = splitter.takeRest();
    expect(decode(Uint8Array.from(blocks.flatMap((b) => [...b.bytes]))) + decode(rest.bytes)).toBe(
      'a,b\nc,d\nx,5" tv\ne,f\n',
    );
    expect(rest.seq).toBe(blocks.length);
  });

  it('a bare LF in a CRLF file is not a cut, but a quote after it opens a field (the LF ends a line: eachRecord)', () => {
    const bytes = utf8('a,b\r\nx\ny,z\r\nc,d\r\n');
    expect(findCut(bytes, 0, bytes.length, 6, false, ',', '\r\n')).toEqual({ kind: 'cut', at: 12 });
    const quoted = utf8('a,b\r\nx\n"y\r\nz",w\r\nc,d\r\n');
    expect(findCut(quoted, 0, quoted.length, 6, false, ',', '\r\n')).toEqual({ kind: 'cut', at: 17 });
  });

  it('waits for more bytes when the record around the target is incomplete', () => {
    const bytes = utf8('a,b\n"open quoted field');
    expect(findCut(bytes, 0, bytes.length, 5, false, ',', '\n')).toEqual({ kind: 'more' });
  });
});

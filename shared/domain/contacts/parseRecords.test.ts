import { describe, expect, it } from 'vitest';
import {
  createRecordStream,
  eachRecord,
  eachRecordByPapaparse,
  firstRecord,
  parseRecords,
} from './parseRecords.ts';
import type { Delimiter, Newline } from './types.ts';

describe('parseRecords (papaparse, arrays)', () => {
  it('handles quotes, doubled quotes and embedded line breaks', () => {
    const text = 'a,"b, ""quoted""","line one\nline two"\nc,d,e\n';
    expect(parseRecords(text, ',', '\n')).toEqual([
      ['a', 'b, "quoted"', 'line one\nline two'],
      ['c', 'd', 'e'],
    ]);
  });

  it('has one record per line break: blank lines are records, a trailing break is not one', () => {
    expect(parseRecords('a\n\nb\n', ',', '\n')).toEqual([['a'], [''], ['b']]);
    expect(parseRecords('a\n\nb', ',', '\n')).toEqual([['a'], [''], ['b']]);
    expect(parseRecords('', ',', '\n')).toEqual([]);
  });

  it('a lone LF outside quotes in a CRLF text ends a record; inside quotes it stays; spans stay right (issue 25)', () => {
    const text = 'a,b\r\nc,d\n"e\nf",g\r\n\nh,"i"\n';
    const seen: Array<[string[], string]> = [];
    eachRecord(text, ',', '\r\n', false, (cells, start, end) => seen.push([cells, text.slice(start, end)]));
    expect(seen).toEqual([
      [['a', 'b'], 'a,b'],
      [['c', 'd'], 'c,d'],
      [['e\nf', 'g'], '"e\nf",g'],
      [[''], ''],
      [['h', 'i'], 'h,"i"'],
    ]);
    // Streaming: the same records whatever the chunks.
    const stream = createRecordStream(',', '\r\n');
    const streamed: string[][] = [];
    for (const piece of text.match(/[\s\S]{1,3}/g) ?? []) stream.push(piece, (cells) => streamed.push(cells));
    stream.end((cells) => streamed.push(cells));
    expect(streamed).toEqual(seen.map(([cells]) => cells));
  });

  it('reports each record with its text span, line break excluded', () => {
    const text = 'a,b\r\n"x\r\ny",z\r\n\r\nlast';
    const spans: string[] = [];
    eachRecord(text, ',', '\r\n', false, (_cells, start, end) => spans.push(text.slice(start, end)));
    expect(spans).toEqual(['a,b', '"x\r\ny",z', '', 'last']);
  });

  it('streams arbitrary chunks to the same records as one parse', () => {
    const text = 'h1,h2\n"a\nb",c\n\nd,"e,""f"""\ng,h\n';
    const whole = parseRecords(text, ',', '\n');
    for (let size = 1; size <= 9; size++) {
      const stream = createRecordStream(',', '\n');
      const rows: string[][] = [];
      for (let at = 0; at < text.length; at += size)
        stream.push(text.slice(at, at + size), (cells) => rows.push(cells));
      stream.end((cells) => rows.push(cells));
      expect(rows).toEqual(whole);
    }
  });

  it('finds the first record and where the next starts', () => {
    expect(firstRecord('"Name\nfull",Phone\nx,y\n', ',', '\n')).toEqual({
      cells: ['Name\nfull', 'Phone'],
      end: 18,
    });
    expect(firstRecord('only header', ',', '\n')).toEqual({ cells: ['only header'], end: 11 });
  });
});

describe('whole records without papaparse (eachRegularRecord)', () => {
  const read = (
    parse: typeof eachRecord,
    text: string,
    delimiter: Delimiter,
    newline: Newline,
  ): { records: Array<[string[], number, number]>; errors: number } => {
    const records: Array<[string[], number, number]> = [];
    const { errors } = parse(text, delimiter, newline, false, (cells, start, end) =>
      records.push([cells, start, end]),
    );
    return { records, errors: errors > 0 ? 1 : 0 };
  };

  it('reads every text exactly as papaparse does: cells, spans and whether quoting was broken', () => {
    // Random texts over the characters that matter (quotes, delimiters, line breaks, spaces,
    // non-ASCII), regular or not: irregular records go to papaparse with the rest of the text.
    let seed = 28;
    const random = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const cases: Array<[Delimiter, Newline, string[]]> = [
      [',', '\n', ['a', 'b', ',', ',', '"', '"', '""', '\n', '\n', '\r', ' ', 'é']],
      [';', '\n', ['a', ';', '"', '\n', ',', ' ']],
      ['\t', '\r', ['a', '\t', '"', '\r', '\n']],
      [',', '\r\n', ['a', ',', '"', '\r\n', '\r\n', '\r', 'b']],
    ];
    for (const [delimiter, newline, alphabet] of cases) {
      for (let i = 0; i < 3000; i++) {
        let text = '';
        const length = random(24);
        for (let c = 0; c < length; c++) text += alphabet[random(alphabet.length)];
        expect(read(eachRecord, text, delimiter, newline), JSON.stringify(text)).toEqual(
          read(eachRecordByPapaparse, text, delimiter, newline),
        );
      }
    }
  });

  it('regular records: quoted cells with delimiters, doubled quotes and line breaks; empty cells and lines', () => {
    const text = 'a,"b,c","say ""hi""\nthere",\n\n"",x,""\n"end"';
    const seen: Array<[string[], string]> = [];
    eachRecord(text, ',', '\n', false, (cells, start, end) => seen.push([cells, text.slice(start, end)]));
    expect(seen).toEqual([
      [['a', 'b,c', 'say "hi"\nthere', ''], 'a,"b,c","say ""hi""\nthere",'],
      [[''], ''],
      [['', 'x', ''], '"",x,""'],
      [['end'], '"end"'],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { createRecordStream, eachRecord, firstRecord, parseRecords } from './parseRecords.ts';

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

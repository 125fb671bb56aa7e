import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { storedJson } from './storedJson.ts';
import { cellsJson } from './storedCells.ts';

describe('storedJson', () => {
  const counts = storedJson(z.object({ rows: z.number() }), 'list counts');

  it('returns the parsed value when it matches its schema', () => {
    expect(counts('{"rows":3}')).toEqual({ rows: 3 });
    expect(cellsJson('["a","b"]')).toEqual(['a', 'b']);
  });

  it('names the column when the text is not JSON', () => {
    expect(() => counts('{rows')).toThrow('Stored list counts is not valid JSON.');
  });

  it('names the column and the path when the shape is wrong', () => {
    expect(() => counts('{"rows":"3"}')).toThrow(
      /Stored list counts does not have the expected shape at rows/,
    );
    expect(() => cellsJson('["a",1]')).toThrow(/Stored row cells .* at 1/);
  });
});

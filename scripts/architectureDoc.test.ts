// docs/architecture.md is the newcomer's map: it stays short (≤ 250 lines of design; figures live in
// docs/benchmarks.md) and its "Where is…" table points at folders and files that exist, so a move
// that forgets the map fails here rather than sending someone down a dead end.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const doc = readFileSync('docs/architecture.md', 'utf8');
const ROOTS = ['electron/', 'renderer/', 'shared/', 'sandbox/', 'scripts/', 'bench/', 'e2e/', 'docs/'];

/** `a/{b,c}.ts` → `a/b.ts`, `a/c.ts`; anything else as it is. */
export function expandBraces(path: string): string[] {
  const m = /^(.*)\{([^}]+)\}(.*)$/.exec(path);
  return m ? m[2]!.split(',').map((part) => `${m[1]}${part}${m[3]}`) : [path];
}

function whereIsRows(): string[] {
  const start = doc.indexOf('| Feature');
  expect(start, 'the "Where is…" table').toBeGreaterThan(-1);
  const rows: string[] = [];
  for (const line of doc.slice(start).split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    rows.push(line);
  }
  return rows;
}

describe('docs/architecture.md', () => {
  it('is at most 250 lines', () => {
    expect(doc.trimEnd().split('\n').length).toBeLessThanOrEqual(250);
  });

  it('expands a brace list into its paths', () => {
    expect(expandBraces('a/{b,c}.queries.ts')).toEqual(['a/b.queries.ts', 'a/c.queries.ts']);
  });

  it('points every full path of its "Where is…" table at something that exists', () => {
    const rows = whereIsRows();
    expect(rows.length).toBeGreaterThan(10);
    const cited = rows.flatMap((row) =>
      [...row.matchAll(/`([^`]+)`/g)]
        .map((m) => m[1]!)
        .filter((p) => ROOTS.some((root) => p.startsWith(root)) && !p.includes('<')),
    );
    expect(cited.length).toBeGreaterThan(20);
    const missing = cited.flatMap(expandBraces).filter((p) => !existsSync(p));
    expect(missing).toEqual([]);
  });

  it('names where the four landmarks of issue 26 live', () => {
    for (const feature of [
      'Campaign launch, resume',
      'Calls full-text search',
      'Phone validation fast path',
      'Import progress',
    ]) {
      expect(whereIsRows().some((row) => row.includes(feature))).toBe(true);
    }
  });
});

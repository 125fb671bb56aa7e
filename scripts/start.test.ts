import { mkdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDirs } from '../electron/services/db/testing.ts';
import { isStale, newestMtime } from './start.ts';

const dirs = tempDirs('desk-start-');
afterEach(() => dirs.cleanup());

const touch = (path: string, secondsAgo: number) => {
  writeFileSync(path, 'x');
  const t = Date.now() / 1000 - secondsAgo;
  utimesSync(path, t, t);
};

describe('npm start staleness checks', () => {
  it('finds the newest file under folders, skipping node_modules and dot folders', () => {
    const root = dirs.make();
    mkdirSync(join(root, 'src', 'deep'), { recursive: true });
    mkdirSync(join(root, 'node_modules'));
    mkdirSync(join(root, '.cache'));
    touch(join(root, 'src', 'a.ts'), 100);
    touch(join(root, 'src', 'deep', 'b.ts'), 50);
    touch(join(root, 'node_modules', 'new.js'), 1);
    touch(join(root, '.cache', 'new.js'), 1);
    // Compared with the file's own mtime: re-reading the clock here could round to another second.
    expect(newestMtime([root])).toBe(statSync(join(root, 'src', 'deep', 'b.ts')).mtimeMs);
    expect(newestMtime([join(root, 'missing')])).toBe(0);
  });

  it('rebuilds when the output is missing or older than a source', () => {
    const root = dirs.make();
    touch(join(root, 'source.ts'), 10);
    expect(isStale(join(root, 'out.js'), [join(root, 'source.ts')])).toBe(true);
    touch(join(root, 'out.js'), 5);
    expect(isStale(join(root, 'out.js'), [join(root, 'source.ts')])).toBe(false);
    touch(join(root, 'source.ts'), 1);
    expect(isStale(join(root, 'out.js'), [join(root, 'source.ts')])).toBe(true);
  });
});

import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { latestSchemaVersion, migrations } from './index.ts';

describe('migration registry', () => {
  it('lists migrations in strictly increasing version order', () => {
    const versions = migrations.map((m) => m.version);
    expect(versions.length).toBeGreaterThan(0);
    expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));
    expect(latestSchemaVersion()).toBe(versions.at(-1));
  });

  it('registers every migration file of the folder, and each file has its own test', () => {
    const files = readdirSync(fileURLToPath(new URL('.', import.meta.url)));
    const migrationFiles = files.filter((f) => /^\d{4}-[a-z0-9-]+\.ts$/.test(f));
    const fromFiles = migrationFiles.map((f) => Number(f.slice(0, 4))).sort((a, b) => a - b);
    expect(fromFiles).toEqual(migrations.map((m) => m.version));
    for (const f of migrationFiles) expect(files).toContain(f.replace(/\.ts$/, '.test.ts'));
  });
});

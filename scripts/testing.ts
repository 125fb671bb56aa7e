// Test helper: throw-away folder trees written from a map of path → text, removed after each test.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

/** Call inside a describe block; returns a function that writes a tree and gives its root. */
export function tempTrees(prefix: string): (files: Record<string, string>) => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  return (files) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(root);
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
      fs.writeFileSync(path.join(root, name), text);
    }
    return root;
  };
}

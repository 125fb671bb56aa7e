import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './support/paths.ts';

/** Newest modification time of any file under `target` (a file or a folder). */
function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** Builds dist/renderer once before the suite when its sources are newer than the build. */
export default function globalSetup() {
  const built = path.join(repoRoot, 'dist/renderer/index.html');
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  const sources = ['renderer', 'shared', 'vite.config.ts', 'package-lock.json'].map((p) =>
    path.join(repoRoot, p),
  );
  const sourcesAt = Math.max(...sources.map(newestMtime));
  if (builtAt >= sourcesAt) return;
  console.log('e2e: dist/renderer is older than its sources; running npm run -s build:renderer');
  execFileSync('npm', ['run', '-s', 'build:renderer'], { cwd: repoRoot, stdio: 'inherit' });
}

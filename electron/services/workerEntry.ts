/**
 * Where a worker thread's entry file is. Run from source (Node strips the types) it is the .ts
 * module beside the caller; bundled by scripts/build-electron.ts it is `<name>.js` beside the bundle
 * that runs this code (dist-electron/).
 */
export function workerEntryUrl(sourceUrl: URL, bundledName: string): URL {
  return import.meta.url.endsWith('.ts') ? sourceUrl : new URL(`./${bundledName}`, import.meta.url);
}

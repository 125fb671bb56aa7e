export { cleanFile } from './cleanFile.ts';
export type { CleanFileOptions } from './cleanFile.ts';
export { runCleanFile } from './runCleanFile.ts';
export { createWorkerPool } from './workerPool.ts';
export type { WorkerPool } from './workerPool.ts';

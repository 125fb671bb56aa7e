// The raw-parse baseline: papaparse streaming a file as text (fs read stream with utf8 encoding:
// Buffers would split multi-byte characters), header:false, a step callback that keeps nothing.
// Prints {"rows":…,"ms":…} (ms measured inside, without Node start-up).
import { createReadStream } from 'node:fs';
import Papa from 'papaparse';

const file = process.argv[2];
if (!file) {
  console.error('usage: node bench/lib/rawPapaparse.ts <file.csv>');
  process.exit(2);
}
const started = performance.now();
let rows = 0;
await new Promise<void>((resolve, reject) => {
  // papaparse accepts a Node readable stream in place of a File.
  Papa.parse(createReadStream(file, { encoding: 'utf8' }) as unknown as File, {
    header: false,
    step: () => {
      rows++;
    },
    complete: () => resolve(),
    error: (error: Error) => reject(error),
  });
});
console.log(JSON.stringify({ rows, ms: performance.now() - started }));

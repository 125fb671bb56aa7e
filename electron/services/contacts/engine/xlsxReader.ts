// The workbook reader thread of a cleanFile() run on an .xlsx: inflating and parsing the sheet's
// XML into CSV text costs about as much CPU as cleaning it, so it runs beside the coordinator
// (sheetThread.ts) instead of inside it, on a core the engine leaves idle much of the time.
// It opens the workbook, chooses the sheet, then streams CSV chunks (transferred, not copied), at
// most CREDITS ahead of what the coordinator has taken, from the top on every `open`.
import { open } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { ContactsError } from '../../../../shared/domain/contacts/errors.ts';
import { openSheet } from '../../../../shared/domain/xlsx/index.ts';
import { fileAccess } from './inputSource.ts';
import type { ReaderData, ReaderReply, ReaderRequest } from './sheetThread.ts';

const port = parentPort;
if (!port) throw new Error('the workbook reader must run in a worker thread');
const send = (reply: ReaderReply, transfer: ArrayBuffer[] = []): void => port.postMessage(reply, transfer);
const failed = (run: number | null, error: unknown): ReaderReply =>
  error instanceof ContactsError
    ? { kind: 'failed', run, code: error.code, message: error.message }
    : {
        kind: 'failed',
        run,
        code: 'internal',
        message: error instanceof Error ? error.message : String(error),
      };

const CREDITS = 4;
const { path, size, choices } = workerData as ReaderData;
const handle = await open(path, 'r');
let current = 0;
let credits = 0;
let wake: (() => void) | null = null;

try {
  const opened = await openSheet(fileAccess(handle, size), choices, 'first');
  send({ kind: 'opened', sheet: opened.sheet.name, total: opened.source.total });

  const stream = async (run: number): Promise<void> => {
    try {
      for await (const chunk of opened.source.open()) {
        while (credits === 0 && run === current) await new Promise<void>((resolve) => (wake = resolve));
        if (run !== current) return;
        credits--;
        const bytes =
          chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength ? chunk : chunk.slice();
        send({ kind: 'chunk', run, bytes, read: opened.source.read }, [bytes.buffer as ArrayBuffer]);
      }
      if (run === current) send({ kind: 'end', run });
    } catch (error) {
      if (run === current) send(failed(run, error));
    }
  };

  port.on('message', (message: ReaderRequest) => {
    if (message.kind === 'open') {
      current = message.run;
      credits = CREDITS;
      wake?.();
      void stream(message.run);
    } else if (message.kind === 'more' && message.run === current) {
      credits++;
      wake?.();
    } else if (message.kind === 'stop' && message.run === current) {
      current = -1;
      wake?.();
    } else if (message.kind === 'close') {
      current = -1;
      wake?.();
      void handle.close().finally(() => port.close());
    }
  });
} catch (error) {
  send(failed(null, error));
  await handle.close();
}

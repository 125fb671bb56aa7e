// The UI thread's part of an import: start the workers, hand them the File, and forward finished
// batches to the back end one after another. Nothing here parses or encodes rows; each batch is
// already one string (the UI thread never holds more than a few of them).
import type { Progress } from '../../../shared/domain/contacts/index.ts';
import type {
  ContactList,
  Detected,
  ImportChoices,
  VariableMapping,
} from '../../../shared/ipc/channels/contacts.ts';
import { desk } from '../desk/desk.ts';
import type { FromCoordinator, ToCoordinator } from '../workers/importMessages.ts';

export interface ImportProgress {
  /** 'cancelling': stopped here, waiting for the back end to drop what it stored. */
  phase: 'reading' | 'importing' | 'finishing' | 'done' | 'failed' | 'cancelling' | 'cancelled';
  detected: Detected | null;
  variables: VariableMapping[];
  progress: Progress | null;
  /** Rows the back end has stored. */
  savedRows: number;
  list: ContactList | null;
  error: string | null;
  startedAt: number;
  finishedAt: number | null;
}

export interface ImportHandle {
  cancel(): void;
  readonly done: Promise<ImportProgress>;
}

/** Lanes: two or more (the engine falls back to one itself when splitting is unsafe). */
export const laneCount = (
  cores = typeof navigator === 'undefined' ? 2 : navigator.hardwareConcurrency || 2,
): number => Math.max(2, Math.min(4, cores - 1));

const message = (error: { message: string }): string => error.message;

/** Batches on their way to the back end at once. */
const MAX_SENT = 3;
/** Shortest gap between two progress updates of the UI (the engine reports every 200 ms too). */
const PROGRESS_MS = 200;

/** User-timing marks of an import's stages (the import bench reads them; cheap otherwise). */
const mark = (stage: string): void => void performance.mark(`contacts-import:${stage}`);

/** Resolves in a later task (not a microtask), letting input and rendering run first. */
const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** Bytes of the file per block, so per batch (about 2,500 rows of a typical contact list). */
export const BLOCK_BYTES = 256 * 1024;

/**
 * Starts an import of `file`; `onUpdate` receives every state change (throttled by the engine's
 * progress interval). The returned handle cancels; `done` settles with the final state.
 */
export function startImport(
  file: File,
  choices: ImportChoices,
  onUpdate: (state: ImportProgress) => void,
): ImportHandle {
  let state: ImportProgress = {
    phase: 'reading',
    detected: null,
    variables: choices.variables,
    progress: null,
    savedRows: 0,
    list: null,
    error: null,
    startedAt: performance.now(),
    finishedAt: null,
  };
  /** A frequent patch (rows stored, engine progress) waiting to reach the UI. */
  let soon: ReturnType<typeof setTimeout> | null = null;
  const update = (patch: Partial<ImportProgress>) => {
    state = { ...state, ...patch };
    if (soon) clearTimeout(soon);
    soon = null;
    onUpdate(state);
  };
  /**
   * Counts that move with every batch reach the UI at most every PROGRESS_MS: each update
   * re-renders, lays out and paints the page, and a million rows are ~400 batches.
   */
  const updateSoon = (patch: Partial<ImportProgress>) => {
    state = { ...state, ...patch };
    soon ??= setTimeout(() => {
      soon = null;
      if (!finished) onUpdate(state);
    }, PROGRESS_MS);
  };

  const coordinator = new Worker(new URL('../workers/contactsImport.worker.ts', import.meta.url), {
    type: 'module',
    name: 'contacts-import',
  });
  const lanes: Worker[] = [];
  const ports: MessagePort[] = [];
  for (let i = 0; i < laneCount(); i++) {
    const lane = new Worker(new URL('../workers/contactsLane.worker.ts', import.meta.url), {
      type: 'module',
      name: `contacts-lane-${i + 1}`,
    });
    const channel = new MessageChannel();
    lane.postMessage({ type: 'connect', port: channel.port2 }, [channel.port2]);
    lanes.push(lane);
    ports.push(channel.port1);
  }
  const toCoordinator = (m: ToCoordinator, transfer: Transferable[] = []) =>
    coordinator.postMessage(m, transfer);

  let resolveDone: (s: ImportProgress) => void = () => {};
  const done = new Promise<ImportProgress>((resolve) => (resolveDone = resolve));
  let importId: string | null = null;
  /** The import id once import-begin has answered (null if it failed or was never sent). */
  let begun: Promise<string | null> = Promise.resolve(null);
  let queue: Promise<void> = Promise.resolve();
  /** Batches sent and not yet answered: a few at once, so the back end checks one while it stores another. */
  const sent: Array<Promise<void>> = [];
  const drain = async () => {
    while (sent.length > 0) await sent.shift();
  };
  let finished = false;
  /** Set once the import is being stopped (cancel or failure): no step starts after it. */
  let stopping = false;

  const stopWorkers = () => {
    coordinator.terminate();
    for (const lane of lanes) lane.terminate();
  };
  const finish = (patch: Partial<ImportProgress>) => {
    if (finished) return;
    finished = true;
    stopWorkers();
    update({ ...patch, finishedAt: performance.now() });
    resolveDone(state);
  };
  /**
   * Drops whatever the back end stored for this import, at once: it does not wait for batches in
   * flight (the back end refuses them once the import is gone), only for import-begin's answer.
   */
  const abortStored = async (): Promise<void> => {
    const id = importId ?? (await begun);
    importId = null;
    if (id)
      await desk()
        .contacts.importAbort({ importId: id })
        .catch(() => undefined);
  };
  /**
   * Stops the workers and the queue, and reports `patch` only once the back end has dropped the
   * import: a list reloaded after "Import cancelled" can no longer show it (issue 11).
   */
  const stop = (patch: Partial<ImportProgress>) => {
    if (finished || stopping) return;
    stopping = true;
    toCoordinator({ type: 'cancel' });
    stopWorkers();
    if (patch.phase === 'cancelled') update({ phase: 'cancelling' });
    void abortStored()
      .catch(() => undefined)
      .then(() => finish(patch));
  };
  const fail = (error: string) => stop({ phase: 'failed', error });
  /** Runs `step` after every earlier step; a failed step fails the import. */
  const enqueue = (step: () => Promise<void>) => {
    queue = queue.then(async () => {
      if (finished || stopping) return;
      try {
        await step();
      } catch (error) {
        fail(error instanceof Error ? error.message : String(error));
      }
    });
  };

  coordinator.onmessage = (event: MessageEvent<FromCoordinator>) => {
    if (finished || stopping) return; // a message that was on its way when the import stopped
    const m = event.data;
    switch (m.type) {
      case 'detected':
        mark('detected');
        update({ phase: 'importing', detected: m.detected, variables: m.variables });
        enqueue(async () => {
          const call = desk().contacts.importBegin({
            name: file.name.replace(/\.(csv|txt|tsv|xlsx)$/i, '') || file.name,
            fileName: file.name,
            fileBytes: file.size,
            choices: { ...choices, variables: m.variables },
            detected: m.detected,
          });
          begun = call.then(
            (r) => (r.ok ? r.value.importId : null),
            () => null,
          );
          const result = await call;
          if (!result.ok) throw new Error(message(result.error));
          if (stopping) return; // cancelled meanwhile: abortStored drops it
          importId = result.value.importId;
        });
        break;
      case 'batch':
        enqueue(async () => {
          if (!importId) throw new Error('The import was not started in the back end.');
          const answer = desk()
            .contacts.importBatch({ importId, seq: m.seq, data: m.data })
            .then((result) => {
              if (!result.ok) throw new Error(message(result.error));
              if (!finished && !stopping) updateSoon({ savedRows: result.value.received });
              toCoordinator({ type: 'ack', seq: m.seq });
            });
          answer.catch(() => undefined); // surfaced when awaited below
          sent.push(answer);
          // Sending costs this thread a few milliseconds (the transport encodes the message):
          // one batch per task, so the page keeps answering in between.
          await nextTask();
          while (sent.length >= MAX_SENT) await sent.shift();
        });
        break;
      case 'reset':
        enqueue(async () => {
          await drain();
          if (!importId) return;
          const result = await desk().contacts.importReset({ importId });
          if (!result.ok) throw new Error(message(result.error));
          update({ savedRows: 0 });
        });
        break;
      case 'progress':
        updateSoon({ progress: m.progress });
        break;
      case 'done':
        mark('engine-done');
        update({ phase: 'finishing' });
        enqueue(async () => {
          await drain();
          mark('batches-stored');
          if (!importId) throw new Error('The import was not started in the back end.');
          const result = await desk().contacts.importFinish({
            importId,
            report: m.report,
            lateDuplicates: m.lateDuplicates,
          });
          if (stopping) return; // cancelled while finishing: abortStored drops the list
          mark('finished');
          importId = null;
          if (!result.ok) throw new Error(message(result.error));
          finish({ phase: 'done', list: result.value.list, savedRows: result.value.list.counts.rows });
        });
        break;
      case 'failed':
        if (m.code === 'cancelled') {
          stop({ phase: 'cancelled' });
        } else {
          fail(`${file.name}: ${m.message}`);
        }
        break;
    }
  };
  coordinator.onerror = (event) => fail(`The import worker failed: ${event.message || 'unknown error'}`);
  for (const lane of lanes)
    lane.onerror = (event) => fail(`A cleaning worker failed: ${event.message || 'unknown error'}`);

  mark('start');
  toCoordinator({ type: 'start', file, choices, lanes: ports, blockBytes: BLOCK_BYTES }, ports);
  onUpdate(state);

  return {
    cancel() {
      stop({ phase: 'cancelled' });
    },
    done,
  };
}

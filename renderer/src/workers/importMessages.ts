// Messages between the UI thread, the import coordinator worker and its lane workers. All three
// are our own code in the same page: typed, structured-clone data, no validation on these hops
// (the back end validates what reaches it).
import type { BlockResult, LaneRequest, Progress } from '../../../shared/domain/contacts/index.ts';
import type {
  Detected,
  ImportChoices,
  ImportReport,
  VariableMapping,
} from '../../../shared/ipc/channels/contacts.ts';

/** UI thread → coordinator. */
export type ToCoordinator =
  | { type: 'start'; file: Blob; choices: ImportChoices; lanes: MessagePort[]; blockBytes?: number }
  /** The back end stored batch `seq`: the coordinator may run further ahead. */
  | { type: 'ack'; seq: number }
  | { type: 'cancel' };

/** Coordinator → UI thread. */
export type FromCoordinator =
  /** What the file is, and the variables mapping with unmapped variables auto-matched by name. */
  | { type: 'detected'; detected: Detected; variables: VariableMapping[] }
  /** A batch ready for contacts:import-batch: the encoded text's UTF-8 bytes (transferred, not copied). */
  | { type: 'batch'; seq: number; rows: number; data: Uint8Array }
  /** The engine started over (encoding fallback or splitter disagreement): drop what was sent. */
  | { type: 'reset' }
  | { type: 'progress'; progress: Progress }
  | { type: 'done'; report: ImportReport; lateDuplicates: Array<[number, number]> }
  | { type: 'failed'; code: string; message: string };

/** Coordinator → lane: the engine's lane requests (shared with the CLI's worker threads). */
export type { LaneRequest };

/** Lane → coordinator: the engine's result without its cells, which come beside it as JSON lines in UTF-8. */
export type LaneReply =
  | { id: number; ok: true; result: BlockResult | null; cellBytes: Uint8Array }
  | { id: number; ok: false; error: { code: string | null; message: string } };

/** The part of MessagePort / Worker the workers use (a fake or an in-process pair in tests). */
export interface PortLike {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent) => void) | null;
}

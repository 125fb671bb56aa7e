// What the dialer engine keeps in memory: campaigns with their queues, calls ongoing, post-call
// steps, and what a finished call leaves for them.
import type { ResolvedCallConfig } from '../../shared/domain/callConfig.ts';
import type { MinHeap } from '../heap.ts';
import type { HeapItem } from '../heap.ts';
import type { CallRow } from '../store/types.ts';
import type { CallFacts } from '../webhooks/payloads.ts';
import type { analyse } from './analysis.ts';
import type { AttemptKind, AttemptPlan } from './outcomes.ts';
import type { Turn } from './transcript.ts';
import type { DialGate } from './windows.ts';

export type Shares = ReadonlyArray<readonly [AttemptKind, number]>;

export interface Campaign {
  id: string;
  cfg: ResolvedCallConfig;
  gate: DialGate;
  /** concurrency_percentage of the start, or null (all slots). */
  pct: number | null;
  slots: number;
  ongoing: number;
  queue: MinHeap<QueueEntry>;
  swept: boolean;
}

export interface QueueEntry extends HeapItem {
  id: string;
}

export interface IndividualEntry extends QueueEntry {
  gate: DialGate;
}

export interface Ongoing extends HeapItem {
  row: CallRow;
  campaign: Campaign | null;
  cfg: ResolvedCallConfig;
  attempt: number;
  plan: AttemptPlan;
  facts: CallFacts;
}

export type PostKind = 'recording' | 'platform' | 'client' | 'all';
export interface PostStep extends HeapItem {
  kind: PostKind;
  call: Finished;
}
export interface Finished {
  row: CallRow;
  attempt: number;
  plan: AttemptPlan;
  turns: Turn[];
  endedAt: number;
  facts: CallFacts;
  analysis: ReturnType<typeof analyse>;
}

export type Emit = () => void;

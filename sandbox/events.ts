import { EventEmitter } from 'node:events';
import type { EventType } from '../shared/service/enums.ts';

/** Domain events the routes emit; the dialer and webhook engines listen. */
export interface SandboxEventMap {
  /** New calls exist (an individual call, or every call of a campaign start, in one event). */
  'calls-created': { callIds: string[]; bulkListId: string | null };
  /** A call changed status (emitted by whoever changed it). */
  'call-updated': { callId: string; status: string; subStatus: string | null };
  /** A campaign start was accepted (make-call-async, /campaign/start, /campaign/v2/start). */
  'campaign-started': { bulkListId: string; agentId: string; callCount: number };
  /** Calls were cancelled by a terminate operation. */
  'calls-terminated': { callIds: string[] };
  /** An agent's event subscriptions were replaced. */
  'subscriptions-changed': { agentId: string };
  /** An upload finished processing. */
  'upload-processed': { bulkListId: string; status: 'completed' | 'failed' };
  /**
   * A webhook event of one call (sandbox/dialer emits, sandbox/webhooks delivers). `payload` is
   * built only when someone is subscribed; `at` is the virtual time of the event.
   */
  'call-event': {
    eventType: EventType;
    callId: string;
    agentId: string;
    callbackUrl: string | null;
    /** As stored on the call: JSON `{headers, params}` or null. */
    callbackArgs: string | null;
    at: number;
    /** call_completed: this attempt's own outcome (the row may say RETRY_SCHEDULED); not sent. */
    attemptSubStatus?: string;
    payload: () => Record<string, unknown>;
  };
}
export type SandboxEventName = keyof SandboxEventMap;

/** A typed event emitter whose listeners can never break the request that emitted. */
export class SandboxEvents {
  private readonly emitter = new EventEmitter();
  private readonly onError: (e: unknown) => void;

  constructor(onError: (e: unknown) => void) {
    this.onError = onError;
    this.emitter.setMaxListeners(50);
  }

  on<K extends SandboxEventName>(name: K, listener: (payload: SandboxEventMap[K]) => void): () => void {
    const wrapped = (payload: SandboxEventMap[K]) => {
      try {
        listener(payload);
      } catch (e) {
        this.onError(e);
      }
    };
    this.emitter.on(name, wrapped);
    return () => this.emitter.off(name, wrapped);
  }

  emit<K extends SandboxEventName>(name: K, payload: SandboxEventMap[K]): void {
    this.emitter.emit(name, payload);
  }
}

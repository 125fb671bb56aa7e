import type { EventName, EventPayload } from '../../../shared/ipc/contract.ts';
import type { Logger } from '../logging/logger.ts';

type Listener = (payload: unknown) => void;

/** Back end → UI events of the contract. A throwing listener is logged and never breaks the emitter. */
export class EventBus {
  #listeners = new Map<EventName, Set<Listener>>();
  #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    const l = listener as Listener;
    set.add(l);
    return () => void set.delete(l);
  }

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    for (const listener of [...(this.#listeners.get(event) ?? [])]) {
      try {
        listener(payload);
      } catch (error) {
        this.#logger.error('event listener failed', error, { event });
      }
    }
  }

  clear(): void {
    this.#listeners.clear();
  }
}

import { contractEvents } from '../../../shared/ipc/contract.ts';
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

/**
 * A listener for the UI side of the bus (the hosts send what it gets to the renderer): it gets the
 * payload as the contract's schema parses it, and a payload outside the contract is logged and not
 * delivered, so nothing the contract does not name leaves the back end (as with channel answers).
 */
export function contractListener<E extends EventName>(
  event: E,
  listener: (payload: EventPayload<E>) => void,
  logger: Logger,
): (payload: EventPayload<E>) => void {
  const schema = contractEvents[event].payload;
  return (payload) => {
    const parsed = schema.safeParse(payload);
    if (!parsed.success) {
      logger.error('event outside the contract was not sent', parsed.error, { event });
      return;
    }
    listener(parsed.data as EventPayload<E>);
  };
}

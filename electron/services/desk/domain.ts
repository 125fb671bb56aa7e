import type { Channel, ParsedRequestOf, ResponseOf } from '../../../shared/ipc/contract.ts';
import type { DeskContext } from './context.ts';

export type Handler<C extends Channel> = (request: ParsedRequestOf<C>) => Promise<ResponseOf<C>>;

/** The handlers one domain provides: channel → async function of the parsed request. */
export type DomainHandlers = { [C in Channel]?: Handler<C> };

/**
 * A domain of the back end (`electron/services/<domain>/handlers.ts`). `create` builds its handlers,
 * may start background work, and registers cleanup with `ctx.onClose`. Domains are created in the
 * order of `domains.ts`, so a later one may rely on an earlier one's start-up.
 */
export interface Domain {
  name: string;
  create(ctx: DeskContext): Promise<DomainHandlers> | DomainHandlers;
}

export const defineDomain = (domain: Domain): Domain => domain;

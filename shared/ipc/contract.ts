import type { z } from 'zod';
import type { Result } from './result.ts';
import { appChannels, appEvents } from './channels/app.ts';
import { workspaceChannels, workspaceEvents } from './channels/workspaces.ts';
import { contactsChannels, contactsEvents } from './channels/contacts.ts';
import { agentsChannels, agentsEvents } from './channels/agents.ts';
import { campaignsChannels, campaignsEvents } from './channels/campaigns.ts';
import { callsChannels, callsEvents } from './channels/calls.ts';
import { reviewChannels } from './channels/review.ts';
import { suppressionChannels, suppressionEvents } from './channels/suppression.ts';

/**
 * The one contract between UI and back end. Channel names are `domain:action` (kebab case).
 * Each domain keeps its channels in channels/<domain>.ts; add the domain here.
 */
export const contract = {
  ...appChannels,
  ...workspaceChannels,
  ...contactsChannels,
  ...agentsChannels,
  ...campaignsChannels,
  ...callsChannels,
  ...reviewChannels,
  ...suppressionChannels,
};
export const contractEvents = {
  ...appEvents,
  ...workspaceEvents,
  ...agentsEvents,
  ...contactsEvents,
  ...campaignsEvents,
  ...callsEvents,
  ...suppressionEvents,
};

export type Contract = typeof contract;
export type Channel = keyof Contract;
export type RequestOf<C extends Channel> = z.input<Contract[C]['request']>;
export type ParsedRequestOf<C extends Channel> = z.output<Contract[C]['request']>;
export type ResponseOf<C extends Channel> = z.output<Contract[C]['response']>;

export type EventName = keyof typeof contractEvents;
export type EventPayload<E extends EventName> = z.output<(typeof contractEvents)[E]['payload']>;

export const channelNames = Object.keys(contract) as Channel[];
export const eventNames = Object.keys(contractEvents) as EventName[];
export const isChannel = (name: unknown): name is Channel =>
  typeof name === 'string' && Object.prototype.hasOwnProperty.call(contract, name);
export const isEventName = (name: unknown): name is EventName =>
  typeof name === 'string' && Object.prototype.hasOwnProperty.call(contractEvents, name);

// ---- window.desk: one function per channel, grouped by domain, camelCased ----

type CamelCase<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;
type DomainOf<C> = C extends `${infer D}:${string}` ? D : never;
type ActionOf<C, D extends string> = C extends `${D}:${infer A}` ? A : never;

export type DeskApi = {
  [D in DomainOf<Channel>]: {
    [C in Channel as C extends `${D}:${string}` ? CamelCase<ActionOf<C, D>> : never]: Record<
      string,
      never
    > extends RequestOf<C>
      ? (request?: RequestOf<C>) => Promise<Result<ResponseOf<C>>>
      : (request: RequestOf<C>) => Promise<Result<ResponseOf<C>>>;
  };
} & {
  /** Subscribe to a back-end event; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};

/** How a host carries the contract: Electron IPC in the preload, a WebSocket in the browser host. */
export interface DeskTransport {
  invoke(channel: Channel, request: unknown): Promise<Result<unknown>>;
  subscribe(event: EventName, listener: (payload: unknown) => void): () => void;
}

const camel = (s: string) => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** Builds window.desk from a transport. The same object shape in both hosts. */
export function createDeskApi(transport: DeskTransport): DeskApi {
  const api: Record<string, Record<string, unknown>> = {};
  for (const name of channelNames) {
    const [domain, action] = name.split(':') as [string, string];
    (api[domain] ??= {})[camel(action)] = (request?: unknown) => transport.invoke(name, request ?? {});
  }
  const on = (event: EventName, listener: (payload: unknown) => void) => transport.subscribe(event, listener);
  return Object.freeze({ ...api, on }) as unknown as DeskApi;
}

import type { z } from 'zod';

/** One channel of the contract: a request schema (parsed at the boundary) and a response schema. */
export interface ChannelDef<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  request: Req;
  response: Res;
}
export const channel = <Req extends z.ZodType, Res extends z.ZodType>(request: Req, response: Res) => ({
  request,
  response,
});

/** One event from back end to UI. */
export interface EventDef<P extends z.ZodType = z.ZodType> {
  payload: P;
}
export const event = <P extends z.ZodType>(payload: P) => ({ payload });

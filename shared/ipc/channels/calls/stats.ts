import { z } from 'zod';
import { campaignOutcomeSchema, count } from './fields.ts';

// Chart data of the filtered calls (the Charts panel, a campaign's results).

export const callStatsSchema = z.object({
  /** Every call matching the filter, dialled or not. */
  total: count,
  /** Calls with an attempt time (never-dialled calls are left out of every time, duration and rate). */
  dialled: count,
  byStatus: z.array(z.object({ status: z.string(), count })),
  bySubStatus: z.array(z.object({ subStatus: z.string(), count })),
  /** Calls per outcome of the outcome table, in its order (outcomes with none left out). */
  outcomes: z.array(z.object({ outcome: campaignOutcomeSchema, count })),
  /**
   * Contacts → dialled → answered → completed, counted by number: contacts are the launched list's
   * uploaded rows (a campaign launched here) or the distinct numbers called; answered = completed or
   * voicemail; completed = a conversation that completed.
   */
  funnel: z.object({ contacts: count, dialled: count, answered: count, completed: count }),
  /** Dialled calls per bucket of their attempt time (UTC), oldest first. */
  overTime: z.object({
    bucket: z.enum(['hour', 'day']),
    points: z.array(
      z.object({ at: z.string(), calls: count, answered: count, completed: count, cost: z.number() }),
    ),
  }),
  /** Duration histogram of answered calls, in seconds: [from, to) per bin. */
  duration: z.array(z.object({ from: z.number(), to: z.number(), count })),
  cost: z.object({
    total: z.number(),
    average: z.number().nullable(),
    max: z.number().nullable(),
    /** Total cost over completed calls (null: none completed). */
    perCompleted: z.number().nullable(),
  }),
  /** Talk time of answered calls. */
  durationSeconds: z.object({ total: z.number(), average: z.number().nullable(), answered: count }),
  voicemail: count,
  /**
   * Dialled and answered calls by weekday (0 = Monday) and hour of their attempt, in each call's
   * campaign timezone (the local launch's), else `timeZone`.
   */
  heatmap: z.object({
    timeZone: z.string(),
    /** Calls placed in a campaign timezone other than `timeZone` (so the operator knows). */
    campaignZones: z.array(z.string()),
    cells: z.array(
      z.object({
        weekday: z.number().int().min(0).max(6),
        hour: z.number().int().min(0).max(23),
        dialled: count,
        answered: count,
      }),
    ),
  }),
});
export type CallStats = z.infer<typeof callStatsSchema>;

import { z } from 'zod';
import { channel, event } from '../define.ts';

export const keychainStatusSchema = z.object({
  /** True when secrets go to the OS keychain; false means only "this session" storage is possible. */
  available: z.boolean(),
  /** Why not, in words for the operator, when unavailable. */
  message: z.string().optional(),
});

/**
 * The active workspace's service as the status indicator says it: `online` (answers and takes the
 * key), `offline` (does not answer), `key-rejected` (401, or no key stored), `service-error` (answers
 * with an error). `online` stays the reachability the background work resumes on.
 */
export const connectivitySchema = z.object({
  online: z.boolean(),
  checkedAt: z.string(),
  status: z.enum(['online', 'offline', 'key-rejected', 'service-error']).optional(),
  /** The service's words for key-rejected and service-error. */
  message: z.string().optional(),
});

/**
 * Where the back end is in starting: `upgrading` while the local database is migrated (step `step`
 * of `steps`, migration `version` named `name`, `fraction` 0–1 when that step can say, else null),
 * then `ready`, or `failed` with the reason in words (the file and the step).
 */
export const startupSchema = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('upgrading'),
    step: z.number().int().min(1),
    steps: z.number().int().min(1),
    version: z.number().int().min(0),
    name: z.string(),
    fraction: z.number().min(0).max(1).nullable(),
  }),
  z.object({ state: z.literal('ready') }),
  z.object({ state: z.literal('failed'), message: z.string() }),
]);
export type Startup = z.infer<typeof startupSchema>;

export const appChannels = {
  /** Answered even while the back end is still starting (the hosts' startDesk). */
  'app:startup': channel(z.object({}).strict(), startupSchema),
  'app:info': channel(
    z.object({}).strict(),
    z.object({
      version: z.string(),
      host: z.enum(['electron', 'browser']),
      keychain: keychainStatusSchema,
    }),
  ),
  'app:connectivity': channel(z.object({}).strict(), connectivitySchema),
};

export const appEvents = {
  'app:connectivity-changed': event(connectivitySchema),
  'app:startup-changed': event(startupSchema),
};

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

export const appChannels = {
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
};

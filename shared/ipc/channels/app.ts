import { z } from 'zod';
import { channel, event } from '../define.ts';

export const keychainStatusSchema = z.object({
  /** True when secrets go to the OS keychain; false means only "this session" storage is possible. */
  available: z.boolean(),
  /** Why not, in words for the operator, when unavailable. */
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
  'app:connectivity': channel(z.object({}).strict(), z.object({ online: z.boolean(), checkedAt: z.string() })),
};

export const appEvents = {
  'app:connectivity-changed': event(z.object({ online: z.boolean(), checkedAt: z.string() })),
};

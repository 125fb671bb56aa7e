import { z } from 'zod';
import { channel, event } from '../define.ts';

const id = z.string().min(1).max(100);
const name = z.string().trim().min(1, 'Name is required').max(100);
/** The service root; its path carries the version segment (v0). */
const baseUrl = z
  .string()
  .trim()
  .url('Base URL must be a full URL such as https://prod-api.ringg.ai/ca/api/v0')
  .refine((u) => /^https?:/i.test(u), 'Base URL must start with http:// or https://');
const secret = z.string().trim().min(1).max(4096);

/** What the renderer may know about a workspace: never the secrets themselves. */
export const workspaceSchema = z.object({
  id,
  name: z.string(),
  baseUrl: z.string(),
  isSandbox: z.boolean(),
  hasApiKey: z.boolean(),
  hasBearerToken: z.boolean(),
  /** Where its secrets live: the OS keychain, or memory for this session only. */
  secretStorage: z.enum(['keychain', 'session']),
  createdAt: z.string(),
  lastTest: z
    .object({
      at: z.string(),
      ok: z.boolean(),
      message: z.string(),
      credits: z.number().nullable(),
    })
    .nullable(),
});
export type Workspace = z.infer<typeof workspaceSchema>;

export const connectionTestSchema = z.object({
  ok: z.boolean(),
  /** Operator-facing outcome: "Connected", "Invalid credentials", "Unreachable: …", "Timed out …". */
  message: z.string(),
  credits: z.number().nullable(),
  workspaceName: z.string().nullable(),
});
export type ConnectionTest = z.infer<typeof connectionTestSchema>;

export const workspaceChannels = {
  'workspaces:list': channel(
    z.object({}).strict(),
    z.object({ workspaces: z.array(workspaceSchema), activeId: z.string().nullable() }),
  ),
  'workspaces:create': channel(
    z
      .object({
        name,
        baseUrl,
        apiKey: secret,
        bearerToken: secret.optional(),
        /** Keep secrets in memory only (when the keychain is unavailable, or by choice). */
        sessionOnly: z.boolean().optional(),
      })
      .strict(),
    workspaceSchema,
  ),
  'workspaces:update': channel(
    z
      .object({
        id,
        name: name.optional(),
        baseUrl: baseUrl.optional(),
        apiKey: secret.optional(),
        /** null removes the stored bearer token. */
        bearerToken: secret.nullable().optional(),
      })
      .strict(),
    workspaceSchema,
  ),
  'workspaces:remove': channel(z.object({ id }).strict(), z.object({ removed: z.boolean() })),
  'workspaces:set-active': channel(z.object({ id }).strict(), z.object({ activeId: z.string() })),
  /** Test a saved workspace, or draft values before saving (nothing is stored for a draft). */
  'workspaces:test': channel(
    z.union([
      z.object({ id }).strict(),
      z.object({ draft: z.object({ baseUrl, apiKey: secret }).strict() }).strict(),
    ]),
    connectionTestSchema,
  ),
};

export const workspaceEvents = {
  'workspaces:changed': event(z.object({ activeId: z.string().nullable() })),
};

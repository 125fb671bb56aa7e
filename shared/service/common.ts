import { z } from 'zod';

/** `{ id, agent_display_name }`: how other records point at an agent. */
export const agentRefSchema = z.object({
  id: z.string(),
  agent_display_name: z.string().nullish(),
});
export type AgentRef = z.infer<typeof agentRefSchema>;

/** E.164: a plus sign, a non-zero digit, 7 to 14 more digits. */
export const e164Pattern = /^\+[1-9]\d{7,14}$/;
export const e164Schema = z.string().regex(e164Pattern, 'must be an E.164 number such as +919876543210');

/** An http(s) URL. */
export const httpUrlSchema = z
  .string()
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http:// or https:// URL');

/** Booleans sent as multipart text ("true"/"false"). */
export const textBooleanSchema = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ['true', 'false', '1', '0', 'yes', 'no'].includes(v), 'must be true or false')
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/**
 * The app's rule for webhook callback URLs (subscriptions, the campaign's and the test call's):
 * no credentials in them. A URL's `user:password@` would be stored and shown like any other text,
 * while header values are masked and kept apart, so credentials belong there. The IPC input, the
 * back end's checks and the forms share it; the wire schemas stay the service's own contract.
 */
export const WEBHOOK_URL_CREDENTIALS_MESSAGE =
  'Callback URL must not contain a user name or password (user:password@…): send credentials as a header instead (for example Authorization).';

/** True when the URL names a user or a password (also in text that is not a valid URL). */
export function hasUrlCredentials(url: string): boolean {
  if (!URL.canParse(url.trim())) return /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(url.trim());
  const u = new URL(url.trim());
  return u.username !== '' || u.password !== '';
}

/** The URL with any user name and password replaced by ••• (for display: never shown in clear). */
export function maskUrlCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*@)/i, '$1•••@');
}

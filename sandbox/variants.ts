// Where the service's docs show more than one shape for the same answer, the sandbox serves the one
// selected here (`POST /_sandbox/variants`), so clients are tested against every documented shape.
// Defaults are the sandbox's usual answers. In memory: a restart restores the defaults.
import { z } from 'zod';
import { errorMessageOf } from '../shared/service/errors.ts';

export const variantChoices = {
  /** check-large-campaign-balance: OpenAPI schema `{status, bulk_list_id, message}`, guidance `{required_credits, …}`, or both. */
  balance: ['merged', 'schema', 'guidance'],
  /**
   * get-large-campaign-upload-status: `schema` verifying → processing → completed with the schema's
   * counters; `guidance` uploaded → processing → completed with the guidance's counters; `ready`
   * (beta workspaces) verifying → processing → ready; `merged` the schema's statuses, both counter sets.
   */
  upload_status: ['merged', 'schema', 'guidance', 'ready'],
  /** webhooks/payloads: turns keyed by speaker `{bot}`/`{user}`, or `{role, content}`. */
  transcript: ['bot_user', 'role_content'],
  /** History `created_at` / `call_attempt_time`: `…00.123Z`, `…00.123999+00:00`, `…00+05:30`, `…00.123999` (no offset, UTC). */
  timestamps: ['iso_z', 'micro_offset', 'offset_no_fraction', 'naive_micro'],
  /** History `total`: a number, a numeric string, or the observed `"many"`. */
  total: ['number', 'numeric_string', 'many'],
  /** Error bodies: each operation's documented shape, or every refusal as one of the three shapes. */
  errors: ['documented', 'detail_string', 'detail_list', 'error_object'],
} as const;

type Choices = typeof variantChoices;
export type Variants = { -readonly [K in keyof Choices]: Choices[K][number] };

export const defaultVariants: Readonly<Variants> = {
  balance: 'merged',
  upload_status: 'merged',
  transcript: 'bot_user',
  timestamps: 'iso_z',
  total: 'number',
  errors: 'documented',
};

export const variantsPatchSchema = z
  .object({
    balance: z.enum(variantChoices.balance),
    upload_status: z.enum(variantChoices.upload_status),
    transcript: z.enum(variantChoices.transcript),
    timestamps: z.enum(variantChoices.timestamps),
    total: z.enum(variantChoices.total),
    errors: z.enum(variantChoices.errors),
  })
  .partial()
  .strict();

// ---------------------------------------------------------------- transcript turns

/** A turn as the dialer and the seed store it: one key, the speaker. */
export type StoredTurn = Record<string, string>;

/** Turns in the selected shape (`{bot}` → `{role: "assistant", content}`; `{user}` → `{role: "user", content}`). */
export function shapeTurns(turns: readonly StoredTurn[], v: Variants): Array<Record<string, string>> {
  if (v.transcript === 'bot_user') return turns.map((t) => ({ ...t }));
  return turns.map((t) =>
    'bot' in t
      ? { role: 'assistant', content: t.bot ?? '' }
      : 'user' in t
        ? { role: 'user', content: t.user ?? '' }
        : { ...t },
  );
}

/** The stored JSON string of turns, re-encoded in the selected shape (null stays null). */
export function shapeTranscriptText(json: string | null, v: Variants): string | null {
  if (json === null || v.transcript === 'bot_user') return json;
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? JSON.stringify(shapeTurns(parsed as StoredTurn[], v)) : json;
  } catch {
    return json;
  }
}

// ---------------------------------------------------------------- timestamps and totals

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Epoch ms as the selected timestamp form. Extra microsecond digits are 999 so readers must truncate. */
export function formatTimestamp(ms: number, v: Variants): string {
  const iso = new Date(ms).toISOString(); // 2026-11-23T10:00:00.123Z
  switch (v.timestamps) {
    case 'iso_z':
      return iso;
    case 'micro_offset':
      return `${iso.slice(0, 23)}999+00:00`;
    case 'naive_micro':
      return `${iso.slice(0, 23)}999`;
    case 'offset_no_fraction': {
      const local = new Date(ms + 330 * 60_000); // shown in +05:30, the docs' zone
      return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(
        local.getUTCHours(),
      )}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}+05:30`;
    }
  }
}

export function formatTotal(total: number, v: Variants): number | string {
  if (v.total === 'number') return total;
  return v.total === 'numeric_string' ? String(total) : 'many';
}

// ---------------------------------------------------------------- error bodies

const codeForStatus = (status: number): string =>
  status === 401
    ? '401 Unauthorized'
    : status === 404
      ? 'not_found'
      : status >= 500
        ? '500 Internal Server Error'
        : 'invalid_parameter';

/** An error body in the selected shape, keeping its message (and the fields a validation list names). */
export function shapeErrorBody(body: unknown, status: number, v: Variants): unknown {
  if (v.errors === 'documented') return body;
  const m = errorMessageOf(body);
  if (!m) return body;
  switch (v.errors) {
    case 'detail_string':
      return { detail: m.message };
    case 'detail_list': {
      const original = (body as { detail?: unknown }).detail;
      if (Array.isArray(original)) return body;
      return { detail: [{ type: 'value_error', loc: ['body'], msg: m.message, input: null }] };
    }
    case 'error_object':
      return { error: { code: m.code ?? codeForStatus(status), message: m.message } };
  }
}

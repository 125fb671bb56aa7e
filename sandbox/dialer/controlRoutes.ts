// `GET/POST /_sandbox/dialer` (control API, same X-API-KEY): the dialer's live state, and knobs for
// tests and demos — the outcome shares (e.g. `{"shares": {"answered": 1}}` makes every call answer;
// `{"shares": null}` restores the defaults) and the workspace's calling slots.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../context.ts';
import { HttpError, errorObject, invalidParameter, parseOr } from '../http/errors.ts';
import { dialerOf } from './index.ts';
import { attemptShares } from './outcomes.ts';
import type { AttemptKind } from './outcomes.ts';

const kinds = attemptShares.map(([k]) => k) as [AttemptKind, ...AttemptKind[]];

const body = z
  .object({
    shares: z
      .partialRecord(z.enum(kinds), z.number().min(0).max(1_000_000))
      .refine((s) => Object.values(s).some((w) => (w ?? 0) > 0), 'at least one share must be positive')
      .nullable()
      .optional(),
    workspace_slots: z.number().int().min(1).max(10_000).optional(),
  })
  .strict();

export function registerDialerControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const engine = () => {
    const d = dialerOf(ctx);
    if (!d) throw new HttpError(409, errorObject('not_running', 'The dialer is not running'));
    return d;
  };
  app.get('/_sandbox/dialer', async () => engine().state());
  app.post('/_sandbox/dialer', async (req) => {
    const b = parseOr(body, req.body ?? {}, (m) => invalidParameter(m));
    const d = engine();
    if (b.shares === null) d.resetShares();
    else if (b.shares) d.setShares(b.shares);
    if (b.workspace_slots !== undefined) d.setWorkspaceSlots(b.workspace_slots);
    return d.state();
  });
}

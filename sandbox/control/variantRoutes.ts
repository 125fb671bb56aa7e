// `GET/POST/DELETE /_sandbox/variants`: which documented shape the multi-shape answers take
// (sandbox/variants.ts). Separate from control/routes.ts so each stays one job.
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { invalidParameter, parseOr } from '../http/errors.ts';
import { shapeErrorBody, defaultVariants, variantsPatchSchema } from '../variants.ts';

export function registerVariantRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const state = () => ({ variants: { ...ctx.variants } });

  app.get('/_sandbox/variants', async () => state());

  app.post('/_sandbox/variants', async (req) => {
    const patch = parseOr(variantsPatchSchema, req.body ?? {}, (m) => invalidParameter(m));
    Object.assign(ctx.variants, patch);
    return state();
  });

  app.delete('/_sandbox/variants', async () => {
    Object.assign(ctx.variants, defaultVariants);
    return state();
  });

  // Every v0 refusal leaves in the selected error shape (the control API keeps its own).
  app.addHook('onSend', async (req, reply, payload) => {
    if (ctx.variants.errors === 'documented' || reply.statusCode < 400) return payload;
    if (!req.url.startsWith('/v0/') || typeof payload !== 'string') return payload;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      return payload;
    }
    return JSON.stringify(shapeErrorBody(body, reply.statusCode, ctx.variants));
  });
}

// POST /_sandbox/agents: adds agents (more than one page of GET /agent/all, archived ones, several
// versions) so clients can be tested on paging and on every agent shape the listing carries.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../context.ts';
import { invalidParameter, parseOr } from '../http/errors.ts';

export const maxSeedAgents = 500;

const body = z
  .object({
    count: z.number().int().min(1).max(maxSeedAgents),
    /** Names are `<prefix> 1`, `<prefix> 2` … (default "Seeded agent"). */
    name_prefix: z.string().trim().min(1).max(80).optional(),
    /** Every n-th agent is archived (0 = none). */
    archive_every: z.number().int().min(0).max(maxSeedAgents).optional(),
    /** Versions per agent (the last one active). */
    versions: z.number().int().min(1).max(5).optional(),
    /** Prompt of every version (placeholders as `@{{name}}`); a default one uses callee_name and due_date. */
    prompt: z.string().min(1).max(20_000).optional(),
    language: z.string().min(2).max(20).optional(),
  })
  .strict();

const defaultPrompt =
  'You are calling @{{callee_name}} about the payment due on @{{due_date}}. Be brief and polite.';

export function registerSeedAgentRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/_sandbox/agents', async (req) => {
    const b = parseOr(body, req.body ?? {}, (m) => invalidParameter(m));
    const { store, rng } = ctx;
    const now = ctx.clock.nowMs();
    const prefix = b.name_prefix ?? 'Seeded agent';
    const versions = b.versions ?? 1;
    const created: Array<{ id: string; name: string; archived: boolean }> = [];
    ctx.db.transaction(() => {
      for (let i = 1; i <= b.count; i++) {
        const id = rng.uuid();
        const versionIds = Array.from({ length: versions }, () => rng.uuid());
        const archived = b.archive_every !== undefined && b.archive_every > 0 && i % b.archive_every === 0;
        const name = `${prefix} ${i}`;
        store.agents.insert({
          id,
          display_name: name,
          agent_type: 'outbound',
          language: b.language ?? 'en-IN',
          orchestration_mode: 'single_node',
          active_version_id: versionIds[versions - 1] ?? null,
          template_name: null,
          intro_message: null,
          voice: null,
          event_subscriptions: '[]',
          is_archived: archived ? 1 : 0,
          // After the built-in agents, in order, so the listing's order is the seeding order.
          created_at: now + i,
          updated_at: now + i,
        });
        versionIds.forEach((versionId, vi) => {
          store.agents.insertVersion({
            id: versionId,
            agent_id: id,
            slug: `v${vi + 1}`,
            description: `Version ${vi + 1}`,
            prompt_sections: JSON.stringify([
              { section_title: 'Task', section_content: b.prompt ?? defaultPrompt },
            ]),
            custom_variables: JSON.stringify(['callee_name', 'mobile_number']),
            call_traffic: vi === versions - 1 ? 1 : 0,
            created_at: now + i + vi,
          });
        });
        created.push({ id, name, archived });
      }
    })();
    return { agents: created };
  });
}

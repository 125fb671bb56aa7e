// The data a fresh sandbox starts with: one workspace with credits, agents whose prompts use several
// `@{{variables}}` (one multi-section, versioned), and caller numbers in two pools. Ids come from
// the seeded RNG, so `--seed` makes them the same on every machine.
import type { SandboxContext } from '../context.ts';

interface AgentSeed {
  name: string;
  language: string;
  template: string;
  intro: string;
  variables: string[];
  /** Oldest first; the last one is active. */
  versions: Array<{ slug: string; description: string; sections: Array<[title: string, content: string]> }>;
}

export const seedAgents: readonly AgentSeed[] = [
  {
    name: 'Loan Repayment Reminder',
    language: 'en-IN',
    template: 'collections',
    intro: 'Hello @{{callee_name}}, this is Priya calling from Sahayak Finance.',
    variables: ['callee_name', 'mobile_number', 'loan_amount', 'due_date', 'language', 'city'],
    versions: [
      {
        slug: 'v1',
        description: 'First draft: one-paragraph prompt',
        sections: [
          [
            'Task',
            'Remind @{{callee_name}} that the loan instalment of @{{loan_amount}} is due on @{{due_date}} and ask when they will pay.',
          ],
        ],
      },
      {
        slug: 'v2',
        description: 'Sectioned prompt with FAQ and language handling',
        sections: [
          [
            'Introduction and Objective',
            'You are Priya, a courteous repayment assistant at Sahayak Finance. You are calling @{{callee_name}} from @{{city}} about their loan instalment of @{{loan_amount}}, due on @{{due_date}}. Your goal is a clear promise-to-pay date.',
          ],
          [
            'Response Guidelines',
            'Speak in @{{language}} when the customer prefers it, otherwise in simple English. Keep each turn under two sentences. Never threaten, never discuss other customers, and never ask for card numbers or OTPs.',
          ],
          [
            'Task',
            '1. Confirm you are speaking with @{{callee_name}}.\n2. State the amount @{{loan_amount}} and the due date @{{due_date}}.\n3. Ask when they will pay; if they cannot, offer a call back from a loan officer.\n4. Repeat the agreed date and thank them.',
          ],
          [
            'FAQ Guidelines',
            'If asked how to pay: UPI, net banking, or any Sahayak branch in @{{city}}. If asked about late fees: a fee applies after @{{due_date}}; a loan officer can explain the exact amount.',
          ],
        ],
      },
    ],
  },
  {
    name: 'Insurance Renewal',
    language: 'en-IN',
    template: 'renewals',
    intro: 'Hi @{{callee_name}}, I am calling from Suraksha Insurance about policy @{{customer_id}}.',
    variables: ['callee_name', 'mobile_number', 'customer_id', 'due_date', 'loan_amount'],
    versions: [
      {
        slug: 'v1',
        description: 'Renewal reminder',
        sections: [
          [
            'Task',
            'You are Arjun from Suraksha Insurance. Tell @{{callee_name}} that policy @{{customer_id}} renews on @{{due_date}} with a premium of @{{loan_amount}}. Ask whether they want to renew, and offer to send the payment link by SMS.',
          ],
        ],
      },
    ],
  },
  {
    name: 'Delivery Feedback Survey',
    language: 'hi-IN',
    template: 'survey',
    intro: 'Namaste @{{callee_name}}, do minute ka samay milega?',
    variables: ['callee_name', 'mobile_number', 'city', 'customer_id'],
    versions: [
      {
        slug: 'v1',
        description: 'Three-question survey',
        sections: [
          [
            'Task',
            'Ask @{{callee_name}} in @{{city}} three questions about their last delivery (order @{{customer_id}}): was it on time, was the package intact, how likely are they to recommend us from 0 to 10. Thank them by name.',
          ],
        ],
      },
    ],
  },
];

const numberSeeds: ReadonlyArray<{ pool: string; numbers: string[]; provider: string }> = [
  { pool: 'India outbound', numbers: ['+918049112233', '+918049112234', '+918067551234'], provider: 'plivo' },
  { pool: 'US outbound', numbers: ['+14158675309', '+14158675310', '+16502530000'], provider: 'twilio' },
];

export const seedCredits = 25_000;
const day = 24 * 60 * 60 * 1000;

/** Create the workspace, agents and numbers unless they exist (persisted sandboxes keep theirs). */
export function seedInitialData(ctx: SandboxContext): void {
  const { store, rng } = ctx;
  if (store.workspace.exists()) return;
  const now = ctx.clock.nowMs();
  ctx.db.transaction(() => {
    store.workspace.insert({
      id: rng.uuid(),
      name: 'Sandbox workspace',
      created_at: now - 90 * day,
      credits: seedCredits,
      locked_credits: 0,
    });
    for (const [i, a] of seedAgents.entries()) {
      const agentId = rng.uuid();
      const versionIds = a.versions.map(() => rng.uuid());
      const created = now - (60 - i) * day;
      store.agents.insert({
        id: agentId,
        display_name: a.name,
        agent_type: 'outbound',
        language: a.language,
        orchestration_mode: 'single_node',
        active_version_id: versionIds[versionIds.length - 1] ?? null,
        template_name: a.template,
        intro_message: a.intro,
        voice: JSON.stringify({ id: rng.uuid(), name: a.language === 'hi-IN' ? 'Ananya' : 'Priya' }),
        event_subscriptions: '[]',
        is_archived: 0,
        created_at: created,
        updated_at: created,
      });
      a.versions.forEach((v, vi) => {
        store.agents.insertVersion({
          id: versionIds[vi] ?? rng.uuid(),
          agent_id: agentId,
          slug: v.slug,
          description: v.description,
          prompt_sections: JSON.stringify(
            v.sections.map(([t, c]) => ({ section_title: t, section_content: c })),
          ),
          custom_variables: JSON.stringify(a.variables),
          call_traffic: vi === a.versions.length - 1 ? 1 : 0,
          created_at: created + vi * day,
        });
      });
    }
    for (const p of numberSeeds) {
      const poolId = rng.uuid();
      store.numbers.insertPool({ id: poolId, name: p.pool });
      for (const n of p.numbers) {
        store.numbers.insert({
          id: rng.uuid(),
          number: n,
          number_pool_id: poolId,
          provider: p.provider,
          display_name: `${p.pool} ${n.slice(-4)}`,
          agent_id: null,
          is_spam: 0,
          created_at: now - 30 * day,
        });
      }
    }
  })();
}

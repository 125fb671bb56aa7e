import { describe, expect, it } from 'vitest';
import {
  agentByIdResponseSchema,
  agentListResponseSchema,
  balanceResponseSchema,
  errorMessageOf,
  historyResponseSchema,
  normalizeAgent,
  numberSourceProblem,
  transcriptTurns,
  uploadPhaseOf,
  uploadStatusResponseSchema,
  webhookPayloadSchema,
  legacyCallbackPayloadSchema,
  hasExactlyOneNumberSource,
} from './index.ts';

describe('error bodies', () => {
  it('reads a message from either shape', () => {
    expect(errorMessageOf({ error: { code: '401 Unauthorized', message: 'Invalid credentials' } })).toEqual({
      code: '401 Unauthorized',
      message: 'Invalid credentials',
      fields: [],
    });
    expect(errorMessageOf({ detail: 'Bulk list is not ready' })).toEqual({
      code: null,
      message: 'Bulk list is not ready',
      fields: [],
    });
    expect(
      errorMessageOf({ detail: [{ loc: ['body', 'bulk_list_id'], msg: 'field required' }] })?.message,
    ).toBe('bulk_list_id: field required');
    expect(
      errorMessageOf({
        detail: [
          { type: 'missing', loc: ['body', 'campaign_start_time'], msg: 'Field required', input: null },
          { type: 'missing', loc: ['body', 'call_config'], msg: 'Field required', input: null },
        ],
      }),
    ).toEqual({
      code: null,
      message: 'campaign_start_time: Field required; call_config: Field required',
      fields: ['campaign_start_time', 'call_config'],
    });
    expect(errorMessageOf({ message: 'other' })).toBeNull();
    expect(errorMessageOf('text')).toBeNull();
  });
});

describe('documented variants', () => {
  it('accepts total as a number or "many"', () => {
    const page = { calls: [], limit: 10, offset: 0, count: 0 };
    expect(historyResponseSchema.parse({ ...page, total: 5 }).total).toBe(5);
    expect(historyResponseSchema.parse({ ...page, total: 'many' }).total).toBe('many');
  });

  it('accepts both upload-status counter sets and both balance shapes', () => {
    expect(
      uploadStatusResponseSchema.parse({
        bulk_list_id: 'b',
        status: 'verifying',
        total_callees: 5000,
        invalidated_rows_count: 12,
        invalidated_rows_csv_url: 'https://x/y.csv',
      }).total_callees,
    ).toBe(5000);
    expect(
      uploadStatusResponseSchema.parse({
        bulk_list_id: 'b',
        status: 'processing',
        total_rows: 6200,
        processed_rows: 2800,
        successful_rows: 2744,
        failed_rows: 56,
      }).failed_rows,
    ).toBe(56);
    expect(balanceResponseSchema.parse({ status: 'draft', bulk_list_id: 'b', message: 'ok' }).status).toBe(
      'draft',
    );
    expect(
      balanceResponseSchema.parse({
        bulk_list_id: 'b',
        required_credits: 6200,
        available_credits: 8500,
        sufficient_balance: true,
      }).sufficient_balance,
    ).toBe(true);
  });

  it('maps upload statuses to phases (ready = completed = done; unknown names are null)', () => {
    expect(
      ['uploaded', 'verifying', 'processing', 'completed', 'ready', 'failed', 'Ready', 'odd'].map(
        uploadPhaseOf,
      ),
    ).toEqual(['in_progress', 'in_progress', 'in_progress', 'done', 'done', 'failed', 'done', null]);
  });

  it('reads both agent list envelopes', () => {
    expect(agentListResponseSchema.parse({ status: 'success', data: { agents: [{ id: 'a' }] } })).toEqual([
      { id: 'a' },
    ]);
    expect(agentListResponseSchema.parse({ agents: [{ id: 'b' }] })).toEqual([{ id: 'b' }]);
  });

  it('normalises the documented agent-by-id shape (root agent_config)', () => {
    const view = normalizeAgent(
      agentByIdResponseSchema.parse({
        agents: {
          id: 'a1',
          agent_display_name: 'Sales',
          agent_config: {
            custom_variables: { callee_name: 'string', mobile_number: 'string' },
            agent_prompt: 'Hi @{{callee_name}}, about @{{product}}',
            intro_message: 'Hello',
          },
        },
      }),
    );
    expect(view).toMatchObject({
      id: 'a1',
      name: 'Sales',
      promptText: 'Hi @{{callee_name}}, about @{{product}}',
      introMessage: 'Hello',
    });
    expect(view.variables).toEqual(['callee_name', 'mobile_number', 'product']);
  });

  it('normalises the observed shape (versions with prompt sections; null prompt for multi-node)', () => {
    const view = normalizeAgent(
      agentByIdResponseSchema.parse({
        agents: {
          id: 'a2',
          agent_display_name: 'Collections',
          orchestration_mode: 'single_node',
          active_agent_version_id: 'v2',
          ab_versions: { v1: { slug: 'v1' }, v2: { slug: 'v2', description: 'new' } },
          version_details: {
            v1: {
              agent_config: {
                agent_prompt: { prompt_sections: [{ section_title: 'Task', section_content: 'old' }] },
                custom_variables: ['callee_name'],
              },
            },
            v2: {
              agent_config: {
                agent_prompt: {
                  prompt_sections: [{ section_title: 'Task', section_content: 'Pay @{{amount}}' }],
                },
                custom_variables: ['callee_name', 'mobile_number'],
              },
              event_subscriptions: [{ event_type: 'call_completed', callback_url: 'https://x' }],
            },
          },
        },
      }),
    );
    expect(view.promptText).toBe('## Task\nPay @{{amount}}');
    expect(view.variables).toEqual(['callee_name', 'mobile_number', 'amount']);
    expect(view.versions.map((v) => [v.id, v.slug, v.isActive])).toEqual([
      ['v1', 'v1', false],
      ['v2', 'v2', true],
    ]);
    expect(view.eventSubscriptions[0]?.event_type).toEqual(['call_completed']);
    const multi = normalizeAgent(
      agentByIdResponseSchema.parse({ agents: { id: 'm', agent_config: { agent_prompt: null } } }),
    );
    expect(multi.promptText).toBeNull();
  });

  it('reads transcripts as a list or a JSON string', () => {
    expect(transcriptTurns('[{"bot":"Hi"},{"user":"Yes"}]')).toEqual([{ bot: 'Hi' }, { user: 'Yes' }]);
    expect(transcriptTurns([{ bot: 'Hi' }])).toEqual([{ bot: 'Hi' }]);
    expect(transcriptTurns('not json')).toEqual([]);
    expect(transcriptTurns(null)).toEqual([]);
  });

  it('parses the six webhook payloads and the legacy callback', () => {
    for (const event_type of [
      'call_started',
      'call_completed',
      'recording_completed',
      'platform_analysis_completed',
      'client_analysis_completed',
      'all_processing_completed',
    ]) {
      expect(
        webhookPayloadSchema.parse({ event_type, call_id: 'c1', agent_id: 'a', call_cost: null }).event_type,
      ).toBe(event_type);
    }
    expect(() => webhookPayloadSchema.parse({ event_type: 'call_exploded', call_id: 'c' })).toThrow();
    const legacy = legacyCallbackPayloadSchema.parse({
      status: 'success',
      data: { call_id: 'c', status: 'completed', transcript: [{ bot: 'x' }], retry: 0 },
      message: 'Call Details',
    });
    expect(legacy.data.call_id).toBe('c');
  });
});

describe('number-source rules', () => {
  it('individual call: exactly one of number_pool_id, from_number_id, from_number', () => {
    expect(numberSourceProblem({})).toMatch(/exactly one .*none given/);
    expect(numberSourceProblem({ from_number_id: 'a', from_number: '+1' })).toMatch(
      /got from_number_id and from_number/,
    );
    expect(numberSourceProblem({ number_pool_id: 'p' })).toBeNull();
    expect(numberSourceProblem({ from_number: ['+1'] })).toBeNull();
    expect(numberSourceProblem({ number_pool_id: 'p', from_number: '+1' })).toMatch(
      /got number_pool_id and from_number/,
    );
  });

  it('campaign start: exactly one of from_numbers and number_pool_id', () => {
    expect(hasExactlyOneNumberSource({})).toBe(false);
    expect(hasExactlyOneNumberSource({ from_numbers: [], number_pool_id: 'p' })).toBe(false);
    expect(hasExactlyOneNumberSource({ from_numbers: ['x'] })).toBe(true);
    expect(hasExactlyOneNumberSource({ number_pool_id: 'p' })).toBe(true);
  });
});

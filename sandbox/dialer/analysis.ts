// Post-call analysis of a connected call: the platform's fixed fields (notes §6
// platform_analysis_completed) and a client analysis shaped like a simple custom config.
import type { Rng } from '../rng.ts';
import type { AttemptPlan } from './outcomes.ts';
import { informativeSentences } from './transcript.ts';
import type { TranscriptInput } from './transcript.ts';

export interface PlatformAnalysis {
  summary: string;
  classification: string;
  key_points: string[];
  action_items: string[];
  sentiment: 'positive' | 'neutral' | 'negative';
  call_disconnect_reason: string;
  callback_requested: boolean;
  status: 'analyzed';
}

export interface ClientAnalysis {
  outcome: string;
  callback_requested: boolean;
  follow_up_needed: boolean;
  preferred_language: string | null;
}

const disconnectReason: Record<AttemptPlan['kind'], string> = {
  answered: 'agent_hangup',
  user_left: 'customer_hangup',
  idle: 'idle_timeout',
  long: 'max_call_duration',
  voicemail: 'voicemail',
  no_answer: 'no_answer',
  busy: 'busy',
  failed: 'failed',
  dnd: 'dnd',
};

export function analyse(
  rng: Rng,
  input: TranscriptInput,
  plan: AttemptPlan,
): { platform: PlatformAnalysis; client: ClientAnalysis } {
  const name = input.values.callee_name?.trim() || 'the contact';
  const info = informativeSentences(input.prompt, input.values);
  let classification: string;
  if (plan.kind === 'voicemail') classification = 'voicemail';
  else if (plan.kind === 'user_left') classification = rng.pick(['not_interested', 'callback_requested']);
  else if (plan.kind === 'idle') classification = 'incomplete';
  else
    classification = rng.weighted([
      ['interested', 45],
      ['callback_requested', 20],
      ['information_shared', 25],
      ['not_interested', 10],
    ] as const);
  const callback = classification === 'callback_requested';
  const sentiment =
    classification === 'interested'
      ? 'positive'
      : classification === 'not_interested'
        ? 'negative'
        : 'neutral';
  const summary =
    plan.kind === 'voicemail'
      ? `Reached the voicemail of ${name}; a message was left.`
      : `Spoke with ${name} for ${Math.round(plan.talkSeconds)} seconds (${classification.replace(/_/g, ' ')}). ${info[0] ?? ''}`.trim();
  const actions = callback
    ? [`Call ${name} back`]
    : classification === 'interested'
      ? [`Confirm next steps with ${name}`]
      : plan.kind === 'voicemail' || plan.kind === 'idle'
        ? [`Try ${name} again`]
        : [];
  return {
    platform: {
      summary,
      classification,
      key_points: info.slice(0, 3),
      action_items: actions,
      sentiment,
      call_disconnect_reason: disconnectReason[plan.kind],
      callback_requested: callback,
      status: 'analyzed',
    },
    client: {
      outcome: classification,
      callback_requested: callback,
      follow_up_needed: actions.length > 0,
      preferred_language: input.values.language ?? null,
    },
  };
}

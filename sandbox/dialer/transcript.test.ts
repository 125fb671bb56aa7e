import { describe, expect, it } from 'vitest';
import { promptTextFromSections, substitutePlaceholders } from '../../shared/domain/template.ts';
import { createRng } from '../rng.ts';
import { seedAgents } from '../seed/seedData.ts';
import { analyse } from './analysis.ts';
import { attemptRng, planAttempt } from './outcomes.ts';
import type { AttemptKind } from './outcomes.ts';
import { resolveCallConfig } from '../../shared/domain/callConfig.ts';
import { buildTranscript, messageCounts, speakable } from './transcript.ts';

const values = {
  callee_name: 'Asha Rao',
  city: 'Pune',
  loan_amount: '25,000',
  due_date: '15/12/2026',
  language: 'Hindi',
  customer_id: 'POL-778',
  mobile_number: '+919812345678',
};
const cfg = resolveCallConfig({ max_call_length: 300 });

function inputFor(agentIndex: number) {
  const a = seedAgents[agentIndex];
  if (!a) throw new Error('no such seeded agent');
  const v = a.versions[a.versions.length - 1];
  const prompt = promptTextFromSections((v?.sections ?? []).map(([title, content]) => ({ title, content })));
  return {
    intro: substitutePlaceholders(a.intro, values).text,
    prompt: substitutePlaceholders(prompt, values).text,
    values,
  };
}
const plan = (kind: AttemptKind) =>
  planAttempt(attemptRng(1, kind, 1), cfg, { allowDnd: true, shares: [[kind, 1]] });

describe('buildTranscript', () => {
  it('gives turns keyed by one speaker each, about this contact, with no placeholder left', () => {
    for (const i of [0, 1, 2]) {
      const turns = buildTranscript(createRng(i), inputFor(i), plan('answered'));
      expect(turns.length).toBeGreaterThanOrEqual(4);
      for (const t of turns) {
        expect(Object.keys(t).length).toBe(1);
        expect(['bot', 'user']).toContain(Object.keys(t)[0]);
      }
      const text = JSON.stringify(turns);
      expect(text).not.toContain('@{{');
      expect(text).toContain('Asha Rao');
      expect(turns[0]).toEqual({ bot: inputFor(i).intro });
    }
    const loan = JSON.stringify(buildTranscript(createRng(1), inputFor(0), plan('answered')));
    expect(loan).toContain('25,000');
    expect(loan).toContain('15/12/2026');
  });

  it('tells each outcome its own way', () => {
    const vm = buildTranscript(createRng(1), inputFor(0), plan('voicemail'));
    expect(vm[1]).toEqual({ user: expect.stringContaining('leave a message') });
    const idle = buildTranscript(createRng(1), inputFor(0), plan('idle'));
    expect(idle.at(-2)).toEqual({ bot: 'Are you still there?' });
    const long = buildTranscript(createRng(1), inputFor(0), plan('long'));
    expect(long.at(-1)).toEqual({ bot: expect.stringContaining('time limit') });
    const left = buildTranscript(createRng(1), inputFor(0), plan('user_left'));
    expect(left.length).toBeLessThanOrEqual(4);
  });

  it('grows with the length of the call', () => {
    const short = { ...plan('answered'), talkSeconds: 20 };
    const long = { ...plan('answered'), talkSeconds: 150 };
    const a = messageCounts(buildTranscript(createRng(1), inputFor(0), short));
    const b = messageCounts(buildTranscript(createRng(1), inputFor(0), long));
    expect(b.agent).toBeGreaterThan(a.agent);
    expect(b.user).toBeGreaterThan(a.user);
  });

  it('turns prompt instructions into speech', () => {
    expect(speakable('Confirm you are speaking with Asha Rao.')).toBe('Am I speaking with Asha Rao?');
    expect(speakable('You are calling Asha from Pune about their loan.')).toBe(
      'I am calling Asha from Pune about your loan.',
    );
    expect(speakable('Tell Asha that policy P-1 renews on 1/1/2027.')).toBe('Policy P-1 renews on 1/1/2027.');
  });
});

describe('analyse', () => {
  it('fills the platform fields and a client analysis', () => {
    const a = analyse(createRng(2), inputFor(0), plan('answered'));
    expect(a.platform).toMatchObject({
      summary: expect.stringContaining('Asha Rao'),
      classification: expect.any(String),
      key_points: expect.any(Array),
      action_items: expect.any(Array),
      sentiment: expect.stringMatching(/^(positive|neutral|negative)$/),
      call_disconnect_reason: 'agent_hangup',
    });
    expect(a.client).toMatchObject({ preferred_language: 'Hindi', outcome: a.platform.classification });
    expect(analyse(createRng(2), inputFor(0), plan('voicemail')).platform.classification).toBe('voicemail');
  });
});

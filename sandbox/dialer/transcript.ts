// The conversation of a connected attempt: turns keyed by speaker (`bot`, `user`), built from the
// agent's intro and prompt with the row's variables already substituted. Bot turns voice the prompt
// sentences that carry the row's values, so every transcript is about its own contact.
import type { Rng } from '../rng.ts';
import type { AttemptPlan } from './outcomes.ts';

export type Turn = { bot: string } | { user: string };

export interface TranscriptInput {
  /** Intro message with the values substituted (null: a generic greeting). */
  intro: string | null;
  /** Prompt text with the values substituted. */
  prompt: string;
  values: Readonly<Record<string, string>>;
}

const replies = [
  'Yes, speaking.',
  'Okay.',
  'I see.',
  'Can you repeat that, please?',
  'Yes, I will take care of it this week.',
  'Haan, theek hai.',
  'Sure, go ahead.',
  'Alright, thank you.',
  'What are my options?',
  'I understand.',
];
const brushOffs = ['Who is this?', 'I am busy right now.', 'Not interested, sorry.', 'Call me later.'];
const voicemailGreeting =
  'The person you are calling is not available. Please leave a message after the tone.';

/** Instruction → speech, for the common shapes of agent prompts (the rest is said as written). */
const rewrites: ReadonlyArray<readonly [RegExp, string]> = [
  [/^If asked [^:]*:\s*/i, ''],
  [/^Remind .+? that /, 'Just a reminder: '],
  [/^Tell .+? that /, ''],
  [/^Confirm you are speaking with (.+?)\.?$/, 'Am I speaking with $1?'],
  [/^You are calling /, 'I am calling '],
  [/^You are /, 'This is '],
  [/^State /, 'Let me confirm '],
  [/^Speak in (.+?) when .*$/, 'I can also speak in $1 if you prefer.'],
  [/^Ask .+? (?:in .+? )?(\w+ questions? about .+)$/, 'I have $1'],
];
const pronouns: ReadonlyArray<readonly [RegExp, string]> = [
  [/\btheir\b/g, 'your'],
  [/\bthey\b/g, 'you'],
  [/\bthem\b/g, 'you'],
];

/** A prompt sentence as the bot would say it. */
export function speakable(sentence: string): string {
  let out = sentence;
  for (const [re, to] of rewrites) {
    if (re.test(out)) {
      out = out.replace(re, to);
      break;
    }
  }
  for (const [re, to] of pronouns) out = out.replace(re, to);
  return out.charAt(0).toUpperCase() + out.slice(1);
}

/** Prompt sentences worth saying: the ones carrying a value, else the first few. */
export function informativeSentences(prompt: string, values: Readonly<Record<string, string>>): string[] {
  const sentences = prompt
    .split(/\n+|(?<=[.!?])\s+/)
    .map((s) =>
      s
        .trim()
        .replace(/^\d+\.\s*/, '')
        .replace(/^[-*]\s+/, ''),
    )
    .filter((s) => s !== '' && !s.startsWith('#'));
  const needles = Object.values(values).filter((v) => v.trim().length >= 2);
  const carrying = sentences.filter((s) => needles.some((v) => s.includes(v)));
  return (carrying.length > 0 ? carrying : sentences).slice(0, 12);
}

export function buildTranscript(rng: Rng, input: TranscriptInput, plan: AttemptPlan): Turn[] {
  const name = input.values.callee_name?.trim() || 'there';
  const intro = input.intro?.trim() || `Hello ${name}, thank you for taking my call.`;
  const info = informativeSentences(input.prompt, input.values);
  const say = (i: number) => speakable(info[i % Math.max(1, info.length)] ?? 'I am calling with an update.');
  const turns: Turn[] = [{ bot: intro }];

  switch (plan.kind) {
    case 'voicemail':
      turns.push({ user: voicemailGreeting });
      turns.push({ bot: `This is a message for ${name}. ${say(0)} Please call us back. Thank you.` });
      return turns;
    case 'user_left':
      turns.push({ user: rng.pick(brushOffs) });
      if (plan.talkSeconds > 15) turns.push({ bot: say(0) }, { user: 'I have to go.' });
      return turns;
    default:
      break;
  }
  // About one exchange per 15 s of talk, at least one, at most seven.
  const exchanges = Math.max(1, Math.min(7, Math.round(plan.talkSeconds / 15)));
  turns.push({ user: 'Yes, speaking.' });
  for (let i = 0; i < exchanges; i++) {
    turns.push({ bot: say(i) });
    if (plan.kind === 'idle' && i === exchanges - 1) break;
    turns.push({ user: rng.pick(replies) });
  }
  if (plan.kind === 'idle') {
    turns.push({ bot: 'Are you still there?' });
    turns.push({ bot: 'I have not heard from you, so I will end the call now. Goodbye.' });
  } else if (plan.kind === 'long') {
    turns.push({
      bot: 'We have reached the time limit for this call. Someone from our team will follow up. Goodbye.',
    });
  } else {
    turns.push({ bot: `Thank you for your time, ${name}. Have a good day!` });
  }
  return turns;
}

export function messageCounts(turns: readonly Turn[]): { agent: number; user: number } {
  let agent = 0;
  let user = 0;
  for (const t of turns) {
    if ('bot' in t) agent++;
    else user++;
  }
  return { agent, user };
}

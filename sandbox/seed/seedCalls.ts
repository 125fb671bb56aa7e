// Historical calls in bulk for the control API (POST /_sandbox/seed-calls): one transaction, one
// prepared statement, realistic status / sub-status shares, transcripts and recordings.
import { writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { substitutePlaceholders } from '../../shared/domain/template.ts';
import type { CallStatus } from '../../shared/service/enums.ts';
import type { SandboxContext } from '../context.ts';
import { promptTextOf } from '../domain/agents.ts';
import { recordingValidityMs } from '../recordings.ts';
import type { NewCall } from '../store/types.ts';
import { silentWav } from '../wav.ts';

export interface SeedCallsInput {
  count: number;
  agentId?: string;
  bulkListId?: string;
  status?: CallStatus;
  startMs?: number;
  endMs?: number;
}

const statusShares: ReadonlyArray<readonly [CallStatus, number]> = [
  ['completed', 62],
  ['failed', 24],
  ['cancelled', 5],
  ['error', 3],
  ['forwarded', 1],
  ['retry', 2],
  ['registered', 2],
  ['ongoing', 1],
];

const subStatusShares: Record<CallStatus, ReadonlyArray<readonly [string, number]>> = {
  completed: [
    ['ACCEPTED', 52],
    ['USER_LEFT', 22],
    ['USER_BECAME_IDLE', 8],
    ['MAX_CALL_DURATION', 4],
    ['VOICEMAIL_DETECTED', 9],
    ['VOICEMAIL_DETECTED_VIA_LLM', 3],
    ['RECONCILED_TO_COMPLETED_FROM_ONGOING', 2],
  ],
  failed: [
    ['USER_DID_NOT_JOIN', 45],
    ['RETRY_LIMIT_REACHED', 35],
    ['NOT_ABLE_TO_CALL', 12],
    ['FAILED', 8],
  ],
  cancelled: [
    ['USER_TERMINATED', 50],
    ['DND_SKIPPED', 30],
    ['CAMPAIGN_TIME_EXCEEDED', 20],
  ],
  error: [
    ['PRE_CALL_API_FAILED', 40],
    ['RECONCILED_TO_ERROR_FROM_ONGOING', 25],
    ['RECONCILED_TO_ERROR_FROM_REGISTERED', 20],
    ['RECONCILED_TO_ERROR_FROM_RETRY', 15],
  ],
  forwarded: [['ACCEPTED', 1]],
  retry: [['RETRY_SCHEDULED', 1]],
  registered: [
    ['IN_DB', 70],
    ['QUEUED', 30],
  ],
  ongoing: [['ACCEPTED', 1]],
};

const firstNames = [
  'Aarav',
  'Priya',
  'Rohan',
  'Ananya',
  'Vikram',
  'Meera',
  'Arjun',
  'Kavya',
  'Rahul',
  'Sneha',
  'Imran',
  'Fatima',
  'John',
  'Maria',
  'Wei',
  'Lakshmi',
];
const lastNames = [
  'Sharma',
  'Iyer',
  'Patel',
  'Reddy',
  'Khan',
  'Nair',
  'Gupta',
  'Das',
  'Singh',
  'Fernandes',
  'Smith',
  'Chen',
  'Menon',
  'Joshi',
];
const cities = ['Mumbai', 'Pune', 'Bengaluru', 'Chennai', 'Delhi', 'Kolkata', 'Jaipur', 'Kochi'];

const day = 24 * 60 * 60 * 1000;
const seededRecordingFile = 'seeded-call.wav';

export function seedCalls(ctx: SandboxContext, input: SeedCallsInput): { created: number; tookMs: number } {
  const t0 = performance.now();
  const { store } = ctx;
  const rng = ctx.forkRng(`seed-calls:${store.meta.get('seed_calls_batches') ?? '0'}`);
  store.meta.set('seed_calls_batches', String(Number(store.meta.get('seed_calls_batches') ?? '0') + 1));
  const now = ctx.clock.nowMs();
  const endMs = input.endMs ?? now;
  const startMs = input.startMs ?? endMs - 30 * day;

  const agents = (input.agentId ? [store.agents.get(input.agentId)] : store.agents.all()).flatMap((a) => {
    if (!a) return [];
    const v = store.agents.activeVersion(a);
    if (!v) return [];
    // The first prompt line is what the bot says in seeded transcripts.
    const firstLine =
      promptTextOf(v)
        .split('\n')
        .find((l) => l.trim() && !l.startsWith('##')) ?? '';
    return [{ agent: a, version: v, firstLine }];
  });
  const numbers = store.numbers.list(100, 0).map((n) => n.number);
  const recordingsDir = join(ctx.filesDir, 'recordings');
  const wavPath = join(recordingsDir, seededRecordingFile);
  if (!existsSync(wavPath)) {
    mkdirSync(recordingsDir, { recursive: true });
    writeFileSync(wavPath, silentWav(2));
  }
  const insertRecording = ctx.db.prepare(
    `INSERT INTO recordings (token, call_id, file_path, content_type, size_bytes, duration_seconds, created_at, expires_at)
     VALUES (?, ?, ?, 'audio/wav', ?, ?, ?, ?)`,
  );
  const wavSize = silentWav(2).byteLength;

  function* calls(): Generator<NewCall> {
    for (let i = 0; i < input.count; i++) {
      const { agent, version, firstLine } = rng.pick(agents);
      const status = input.status ?? rng.weighted(statusShares);
      const subStatus = rng.weighted(subStatusShares[status]);
      const createdAt = Math.floor(startMs + rng.next() * Math.max(0, endMs - startMs));
      const name = `${rng.pick(firstNames)} ${rng.pick(lastNames)}`;
      const toNumber = `+919${String(rng.int(100000000, 999999999))}`;
      const attempted = status !== 'registered';
      const answered = status === 'completed' || status === 'forwarded';
      const voicemail = subStatus.startsWith('VOICEMAIL');
      const duration = answered ? (voicemail ? rng.int(8, 25) : rng.int(20, 240)) + rng.next() : 0;
      const values = {
        callee_name: name,
        mobile_number: toNumber,
        city: rng.pick(cities),
        loan_amount: String(rng.int(5, 200) * 1000),
        due_date: '15/11/2026',
      };
      const id = rng.uuid();
      const attemptAt = attempted ? Math.min(now, createdAt + rng.int(1, 600) * 1000) : null;
      let token: string | null = null;
      let expires: number | null = null;
      if (answered && attemptAt !== null) {
        token = `${rng.hex(16)}.wav`;
        const ended = attemptAt + Math.round(duration * 1000);
        expires = ended + recordingValidityMs;
        insertRecording.run(token, id, wavPath, wavSize, duration, ended, expires);
      }
      yield {
        id,
        source: 'seeded',
        created_at: createdAt,
        updated_at: attemptAt ?? createdAt,
        to_number: toNumber,
        name,
        callee_name: name,
        status,
        sub_status: subStatus,
        transcript: answered ? transcript(firstLine, values, voicemail) : null,
        recording_token: token,
        recording_path: token ? wavPath : null,
        recording_expires_at: expires,
        agent_id: agent.id,
        agent_name: agent.display_name,
        agent_version_id: version.id,
        version_slug: version.slug,
        orchestration_mode: agent.orchestration_mode,
        call_duration: Math.round(duration * 1000) / 1000,
        call_attempt_time: attemptAt,
        call_cost: answered ? Math.ceil(duration / 60) : 0,
        credits_processed: attempted ? 1 : 0,
        from_numbers: JSON.stringify(numbers.length ? [rng.pick(numbers)] : []),
        voicemail_detected: voicemail ? 1 : 0,
        bulk_list_id: input.bulkListId ?? null,
        attempt_count: attempted ? rng.int(1, 3) : 0,
        next_attempt_at:
          status === 'retry' || status === 'registered' ? now + rng.int(60, 3600) * 1000 : null,
        custom_args_values: JSON.stringify(values),
      };
    }
  }

  let created = 0;
  ctx.db.transaction(() => {
    created = store.calls.insertMany(calls(), now);
  })();
  return { created, tookMs: Math.round(performance.now() - t0) };
}

function transcript(firstLine: string, values: Record<string, string>, voicemail: boolean): string {
  if (voicemail) {
    return JSON.stringify([
      { bot: `Hello ${values.callee_name}, this is a reminder call.` },
      { user: 'The person you are calling is not available. Please leave a message after the tone.' },
    ]);
  }
  return JSON.stringify([
    { bot: `Hello, am I speaking with ${values.callee_name}?` },
    { user: 'Yes, speaking.' },
    { bot: substitutePlaceholders(firstLine, values).text.slice(0, 240) },
    { user: 'Okay, thank you for letting me know.' },
    { bot: 'Thank you for your time. Have a good day!' },
  ]);
}

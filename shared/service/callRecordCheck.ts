// The history sync's hot path reads every call record once (100,000 per sync): `callRecordSchema`
// (history.ts) written out by hand, for the JSON a page parses to. It answers exactly what the
// schema's parse answers for a record that passes (the same fields in the same order, unknown keys
// left out, call_duration clamped), and null for one that does not: the caller then asks the schema,
// which says why. Proven against the schema on random and malformed records (callRecordCheck.test.ts);
// a change to the schema fails that test until this follows it.
import type { CallRecord } from './history.ts';
import { MAX_CALL_COST, MAX_CALL_DURATION_S } from './history.ts';
import { checkServiceTimestamp } from './normalize.ts';

type Obj = Record<string, unknown>;

/** What z.object() takes: an object that is not an array (JSON gives plain ones only). */
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What z.record() takes (zod's isPlainObject, for JSON values). */
const isPlain = (v: unknown): v is Obj => {
  if (!isObject(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

const nullishString = (v: unknown) => v === undefined || v === null || typeof v === 'string';
const nullishBoolean = (v: unknown) => v === undefined || v === null || typeof v === 'boolean';
const validTime = (v: unknown) => typeof v === 'string' && 'ms' in checkServiceTimestamp(v);

/** Copies `keys` of `from` that are present onto `to`, in that order (zod keeps absent keys absent). */
function copyPresent(to: Obj, from: Obj, keys: readonly string[]): void {
  for (const k of keys) if (k in from) to[k] = from[k];
}

const VERSION_KEYS = ['version_id', 'version_slug'] as const;
const AGENT_NAME_KEYS = ['agent_name', 'agent_version_id', 'orchestration_mode'] as const;

function agentOf(v: unknown): Obj | null | undefined | false {
  if (v === undefined || v === null) return v;
  if (!isObject(v) || typeof v.id !== 'string') return false;
  for (const k of AGENT_NAME_KEYS) if (!nullishString(v[k])) return false;
  const version = v.version;
  if (version !== undefined && version !== null) {
    if (!isObject(version)) return false;
    for (const k of VERSION_KEYS) if (!nullishString(version[k])) return false;
  }
  const out: Obj = { id: v.id };
  copyPresent(out, v, AGENT_NAME_KEYS);
  if ('version' in v) {
    if (isObject(version)) {
      const vo: Obj = {};
      copyPresent(vo, version, VERSION_KEYS);
      out.version = vo;
    } else out.version = version;
  }
  return out;
}

/** z.array(z.record(z.string(), z.unknown())): each turn copied, its own keys in order, `__proto__` left out. */
function turnsOf(v: unknown[]): Obj[] | null {
  const out: Obj[] = new Array<Obj>(v.length);
  for (let i = 0; i < v.length; i++) {
    const t = v[i];
    if (!isPlain(t)) return null;
    const copy: Obj = {};
    for (const k of Object.keys(t)) if (k !== '__proto__') copy[k] = t[k];
    out[i] = copy;
  }
  return out;
}

/** The record as `callRecordSchema.parse` answers it, or null when the schema would refuse it. */
export function checkCallRecord(item: unknown): CallRecord | null {
  if (!isObject(item)) return null;
  const r = item;
  const id = r.id;
  if (typeof id !== 'string' || id.length < 1 || id.length > 200) return null;
  if (!nullishString(r.to_number) || !nullishString(r.name) || typeof r.status !== 'string') return null;
  if (!nullishString(r.sub_status) || !nullishString(r.audio_recording)) return null;
  if (!validTime(r.created_at)) return null;
  const attempt = r.call_attempt_time;
  if (attempt !== undefined && attempt !== null && !validTime(attempt)) return null;
  const duration = r.call_duration;
  if (
    duration !== undefined &&
    duration !== null &&
    !(typeof duration === 'number' && Number.isFinite(duration) && duration >= 0)
  )
    return null;
  const cost = r.call_cost;
  if (
    cost !== undefined &&
    cost !== null &&
    !(typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 && cost <= MAX_CALL_COST)
  )
    return null;
  if (!nullishString(r.call_type) || !nullishString(r.inbound_from)) return null;
  if (!nullishBoolean(r.credits_processed) || !nullishBoolean(r.voicemail_detected)) return null;
  const numbers = r.from_numbers;
  if (numbers !== undefined && numbers !== null) {
    if (!Array.isArray(numbers)) return null;
    for (const n of numbers) if (typeof n !== 'string') return null;
  }
  let transcript = r.transcript;
  if (Array.isArray(transcript)) {
    transcript = turnsOf(transcript);
    if (transcript === null) return null;
  } else if (!nullishString(transcript)) return null;
  const agent = agentOf(r.agent);
  if (agent === false) return null;

  // The schema's keys in its order, present ones only.
  const out: Obj = { id };
  if ('to_number' in r) out.to_number = r.to_number;
  if ('name' in r) out.name = r.name;
  out.status = r.status;
  if ('sub_status' in r) out.sub_status = r.sub_status;
  if ('transcript' in r) out.transcript = transcript;
  if ('audio_recording' in r) out.audio_recording = r.audio_recording;
  out.created_at = r.created_at;
  if ('agent' in r) out.agent = agent;
  if ('call_duration' in r)
    out.call_duration = typeof duration === 'number' ? Math.min(duration, MAX_CALL_DURATION_S) : duration;
  if ('call_attempt_time' in r) out.call_attempt_time = attempt;
  if ('call_cost' in r) out.call_cost = cost;
  if ('call_type' in r) out.call_type = r.call_type;
  if ('inbound_from' in r) out.inbound_from = r.inbound_from;
  if ('credits_processed' in r) out.credits_processed = r.credits_processed;
  if ('from_numbers' in r) out.from_numbers = Array.isArray(numbers) ? numbers.slice() : numbers;
  if ('voicemail_detected' in r) out.voicemail_detected = r.voicemail_detected;
  return out as CallRecord;
}

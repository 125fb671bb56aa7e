// The do-not-call list's rules (issue 27), pure: the reasons and their order, the merge of two
// entries of one number, and the opt-out phrases a transcript is scanned for.

export const SUPPRESSION_REASONS = [
  'opted_out',
  'dnd_registry',
  'wrong_number',
  'complaint',
  'manual',
  'imported',
] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

export const REASON_TEXT: Record<SuppressionReason, string> = {
  opted_out: 'Opted out',
  dnd_registry: 'DND registry',
  wrong_number: 'Wrong number',
  complaint: 'Complaint',
  manual: 'Added by hand',
  imported: 'Imported',
};

export const SOURCE_KINDS = ['call', 'campaign', 'file', 'manual'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** Where an entry came from: a call id, a campaign (bulk list id), a file name, or a person. */
export interface SuppressionSource {
  kind: SourceKind;
  ref: string;
  at: string;
}

export interface SuppressionEntry {
  /** E.164 digits without "+". */
  e164: number;
  reason: SuppressionReason;
  sources: SuppressionSource[];
  addedBy: string;
  addedAt: string;
  expiresAt: string | null;
}

const sourceKey = (s: SuppressionSource) => `${s.kind}\u0000${s.ref}`;

/**
 * One entry from an existing one and a new arrival of the same number: the earliest reason (and
 * who added it, when) is kept, every source is kept once (the first time it was given), and the
 * entry expires at the later expiry (null = never, which outlasts any date).
 */
export function mergeEntries(kept: SuppressionEntry, incoming: SuppressionEntry): SuppressionEntry {
  const [first, second] = incoming.addedAt < kept.addedAt ? [incoming, kept] : [kept, incoming];
  const seen = new Map<string, SuppressionSource>();
  for (const s of [...first.sources, ...second.sources]) {
    const key = sourceKey(s);
    const had = seen.get(key);
    if (!had || s.at < had.at) seen.set(key, s);
  }
  const expiresAt =
    first.expiresAt === null || second.expiresAt === null
      ? null
      : first.expiresAt > second.expiresAt
        ? first.expiresAt
        : second.expiresAt;
  return {
    e164: first.e164,
    reason: first.reason,
    sources: [...seen.values()].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)),
    addedBy: first.addedBy,
    addedAt: first.addedAt,
    expiresAt,
  };
}

/** An entry is in force until its expiry (null = for good). */
export const inForce = (entry: Pick<SuppressionEntry, 'expiresAt'>, nowIso: string): boolean =>
  entry.expiresAt === null || entry.expiresAt > nowIso;

// ---- opt-out phrases ----

/**
 * The phrases a customer uses to ask not to be called, in English and Hindi (romanised and
 * Devanagari). The operator edits the list (Do-not-call → Phrases); this is the starting list.
 */
export const DEFAULT_OPT_OUT_PHRASES: readonly string[] = [
  "don't call me",
  'do not call me',
  "don't call again",
  'do not call again',
  'stop calling',
  'remove my number',
  'take me off your list',
  'never call me',
  'unsubscribe',
  'call mat karo',
  'call mat karna',
  'phone mat karo',
  'phone mat karna',
  'dobara call mat',
  'mujhe call mat',
  'number hata do',
  'कॉल मत करो',
  'कॉल मत करना',
  'फोन मत करो',
  'फ़ोन मत करो',
  'दोबारा कॉल मत',
  'मुझे कॉल मत',
  'नंबर हटा दो',
];

/**
 * Text as phrases are compared: NFC (a nukta typed as one code point or two matches), lower case,
 * apostrophes dropped ("don't" = "dont"), anything but letters, marks and digits a single space
 * (Devanagari's danda included), padded so a phrase matches whole words only.
 */
export function phraseText(text: string): string {
  const folded = text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[\u2019\u2018'`]/g, '')
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, ' ')
    .trim();
  return ` ${folded} `;
}

export interface PhraseMatch {
  phrase: string;
  /** The turn (or text) it was found in, cut to 200 characters around the match. */
  excerpt: string;
}

/** A matcher for a phrase list: the first phrase found in the texts given, or null. */
export function createPhraseMatcher(
  phrases: readonly string[],
): (texts: readonly string[]) => PhraseMatch | null {
  const wanted = phrases.map((p) => ({ phrase: p, key: phraseText(p) })).filter((p) => p.key.trim() !== '');
  return (texts) => {
    for (const text of texts) {
      const folded = phraseText(text);
      for (const p of wanted) {
        if (folded.includes(p.key)) {
          const at = folded.indexOf(p.key);
          const start = Math.max(0, at - 80);
          return { phrase: p.phrase, excerpt: folded.slice(start, start + 200).trim() };
        }
      }
    }
    return null;
  };
}

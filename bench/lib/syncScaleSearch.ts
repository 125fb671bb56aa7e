// The sync bench's searches (bench/sync.ts part 3, bench/lib/syncScaleRun.ts) and bench/searchReads.ts:
// the same terms in the same order, so a figure from either is for the same reads.
import type { DbClient } from '../../electron/services/db/client.ts';
import { parseTranscript } from '../../electron/services/sync/callRow.ts';
import type { CallRecord } from '../../shared/service/history.ts';

/** Words (4+ letters) of completed calls' transcripts, spread over the table (up to `most`). */
export async function searchTerms(db: DbClient, workspaceId: string, most = 200): Promise<string[]> {
  const words = new Set<string>();
  for (let offset = 0; words.size < most && offset < 5000; offset += 97) {
    const rows = await db.call('calls.list', {
      workspaceId,
      filter: { statuses: ['completed'] },
      offset,
      limit: 1,
    });
    const id = rows.rows[0]?.id;
    if (!id) break;
    const call = await db.call('calls.get', { callId: id });
    for (const t of parseTranscript((JSON.parse(call?.raw ?? '{}') as CallRecord).transcript).turns)
      for (const w of t.text.match(/\p{L}{4,}/gu) ?? []) words.add(w.toLowerCase());
  }
  return [...words];
}

/** The i-th search: a word, every third one its first 3 letters. */
export function searchSpec(terms: readonly string[], i: number): { search: string; prefix: boolean } {
  const w = terms[(i * 7919) % terms.length]!;
  return i % 3 === 2 ? { search: w.slice(0, 3), prefix: true } : { search: w, prefix: false };
}

// The search snippet of one call, made in JavaScript from the row's text. FTS5's snippet() must
// rebuild the match for each row it is asked about, which for a prefix of a common word means
// merging tens of thousands of entries per row (about 1 ms a row); this reads only the 50 rows shown.
// It follows the index's tokenizer (unicode61, remove_diacritics 2): a token is a run of letters and
// digits, compared without case and diacritics; the last word typed matches as a prefix.
import type { SnippetPart } from '../../../../shared/ipc/channels/calls.ts';

/** Words of the search as the index compares them (the same split as ftsQuery). */
export function searchTerms(text: string): { words: string[]; prefix: string | null } {
  const words = (text.match(/[\p{L}\p{N}]+/gu) ?? []).map(fold);
  const prefix = words.pop() ?? null;
  return { words, prefix };
}

const fold = (token: string): string =>
  token
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

interface Token {
  start: number;
  end: number;
  hit: boolean;
}

const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;

function tokens(text: string, terms: { words: string[]; prefix: string | null }): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const t = fold(m[0]);
    const hit = terms.words.includes(t) || (terms.prefix !== null && t.startsWith(terms.prefix));
    out.push({ start: m.index, end: m.index + m[0].length, hit });
  }
  return out;
}

/**
 * Up to `size` tokens of the best column (most distinct hits, then the first), starting a little
 * before its first hit, with "…" where text was cut; hits marked. Null when no column has text.
 */
export function callSnippet(
  columns: ReadonlyArray<string | null>,
  search: string,
  size = 12,
): SnippetPart[] | null {
  const terms = searchTerms(search);
  let best: { text: string; toks: Token[]; score: number } | null = null;
  for (const text of columns) {
    if (!text) continue;
    const toks = tokens(text, terms);
    const score = new Set(toks.filter((t) => t.hit).map((t) => fold(text.slice(t.start, t.end)))).size;
    if (!best || score > best.score) best = { text, toks, score };
  }
  if (!best || best.toks.length === 0) return best ? [{ text: best.text, hit: false }] : null;
  const { text, toks } = best;
  const firstHit = Math.max(
    0,
    toks.findIndex((t) => t.hit),
  );
  const from = Math.max(0, Math.min(firstHit - 2, toks.length - size));
  const to = Math.min(toks.length, from + size);
  const parts: SnippetPart[] = [];
  const push = (s: string, hit: boolean) => {
    if (s === '') return;
    const last = parts[parts.length - 1];
    if (last && last.hit === hit) last.text += s;
    else parts.push({ text: s, hit });
  };
  if (from > 0) push('…', false);
  let at = toks[from]!.start;
  for (let i = from; i < to; i++) {
    const t = toks[i]!;
    push(text.slice(at, t.start), false);
    push(text.slice(t.start, t.end), t.hit);
    at = t.end;
  }
  // Trailing punctuation of the last token stays (as FTS5 keeps it up to the next token).
  const tail = to < toks.length ? text.slice(at, toks[to]!.start).replace(/\s+$/, '') : text.slice(at);
  push(tail, false);
  if (to < toks.length) push('…', false);
  return parts;
}

// `@{{variable}}` placeholders of agent prompts (seed, "Variables"): keys of custom_args_values (single
// call) or variables_map (campaign) are substituted where the prompt says `@{{name}}`.

/** `@{{name}}`, tolerating spaces inside the braces. Names are word characters, dots and dashes. */
const placeholder = /@\{\{\s*([A-Za-z0-9_][A-Za-z0-9_.-]*)\s*\}\}/g;

/** Variable names used by a text, once each, in order of first use. */
export function extractPlaceholders(text: string): string[] {
  const seen = new Set<string>();
  for (const m of text.matchAll(placeholder)) {
    const name = m[1];
    if (name !== undefined) seen.add(name);
  }
  return [...seen];
}

export type TemplateValue = string | number | boolean | null | undefined;

export interface SubstitutionResult {
  text: string;
  /** Placeholders with no value (or an empty one), once each. */
  missing: string[];
}

/**
 * Replace each `@{{name}}` by its value. A missing or empty value leaves the placeholder as written
 * (`keep`, the default, so a preview shows the hole) or removes it (`empty`).
 */
export function substitutePlaceholders(
  text: string,
  values: Readonly<Record<string, TemplateValue>>,
  options: { missing?: 'keep' | 'empty' } = {},
): SubstitutionResult {
  const missing = new Set<string>();
  const out = text.replace(placeholder, (whole, name: string) => {
    const v = Object.hasOwn(values, name) ? values[name] : undefined;
    if (v === undefined || v === null || String(v) === '') {
      missing.add(name);
      return options.missing === 'empty' ? '' : whole;
    }
    return String(v);
  });
  return { text: out, missing: [...missing] };
}

export interface PromptSection {
  title: string;
  content: string;
}

/** One prompt text from titled sections (how versioned agents store their prompt). */
export function promptTextFromSections(sections: readonly PromptSection[]): string {
  return sections
    .map((s) => {
      const title = s.title.trim();
      const content = s.content.trim();
      if (!title) return content;
      return content ? `## ${title}\n${content}` : `## ${title}`;
    })
    .filter((s) => s !== '')
    .join('\n\n');
}

/** A prompt cut into plain text and `@{{name}}` placeholders (as written), in order. */
export type PromptPart = { kind: 'text'; text: string } | { kind: 'placeholder'; name: string; text: string };

export function splitPrompt(text: string): PromptPart[] {
  const parts: PromptPart[] = [];
  let last = 0;
  for (const m of text.matchAll(placeholder)) {
    const at = m.index;
    if (at > last) parts.push({ kind: 'text', text: text.slice(last, at) });
    parts.push({ kind: 'placeholder', name: m[1] as string, text: m[0] });
    last = at + m[0].length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}

export interface PlaceholderOccurrence {
  /** 1-based line of the prompt. */
  line: number;
  /** The `## Title` the line sits under (how sections are joined), or null. */
  section: string | null;
  /** The line around the placeholder's first use on it (at most ~160 characters, … where cut). */
  excerpt: string;
}

/** Characters kept either side of the placeholder in an excerpt. */
const EXCERPT_SIDE = 70;

function excerptAround(line: string, at: number, length: number): string {
  const start = Math.max(0, at - EXCERPT_SIDE);
  const end = Math.min(line.length, at + length + EXCERPT_SIDE);
  const text = line.slice(start, end).trim();
  return `${start > 0 ? '…' : ''}${text}${end < line.length ? '…' : ''}`;
}

/** Where each placeholder occurs: once per line it is on, in order. */
export function placeholderOccurrences(text: string): Map<string, PlaceholderOccurrence[]> {
  const out = new Map<string, PlaceholderOccurrence[]>();
  let section: string | null = null;
  text.split(/\r\n|\r|\n/).forEach((line, i) => {
    const heading = /^##\s+(.+?)\s*$/.exec(line);
    if (heading) section = heading[1] as string;
    const seen = new Set<string>();
    for (const m of line.matchAll(placeholder)) {
      const name = m[1] as string;
      if (seen.has(name)) continue;
      seen.add(name);
      let list = out.get(name);
      if (!list) out.set(name, (list = []));
      list.push({ line: i + 1, section, excerpt: excerptAround(line, m.index, m[0].length) });
    }
  });
  return out;
}

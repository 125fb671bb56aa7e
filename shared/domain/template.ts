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

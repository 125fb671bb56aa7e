// The operator's last prompt variables and default country, remembered on this computer (not
// secret; localStorage of the app's own origin).
import { z } from 'zod';

const KEY = 'campaign-desk.contacts.preferences';

export interface ContactPreferences {
  variables: string[];
  country: string;
}

export const DEFAULT_PREFERENCES: ContactPreferences = { variables: [], country: 'IN' };

// What was stored may come from an older version or be edited by hand: a field that does not fit
// falls back on its own (the other one is kept), non-strings among the variables are dropped.
const storedPreferencesSchema = z.object({
  variables: z
    .array(z.unknown())
    .catch([])
    .transform((values) => values.filter((v): v is string => typeof v === 'string').slice(0, 200)),
  country: z
    .string()
    .catch('')
    .transform((country) => country.trim().slice(0, 8) || DEFAULT_PREFERENCES.country),
});

/** "name, loan_amount ,due date" → ["name", "loan_amount", "due date"], without repeats. */
export function parseVariables(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of text.split(/[,\n]/)) {
    const v = part.trim().replace(/^\{\{\s*|\s*\}\}$/g, '');
    if (v && !seen.has(v.toLowerCase())) {
      seen.add(v.toLowerCase());
      out.push(v);
    }
  }
  return out;
}

export function loadPreferences(
  storage: Pick<Storage, 'getItem'> | null = typeof localStorage === 'undefined' ? null : localStorage,
): ContactPreferences {
  try {
    const raw = storage?.getItem(KEY);
    if (!raw) return DEFAULT_PREFERENCES;
    const stored = storedPreferencesSchema.safeParse(JSON.parse(raw));
    return stored.success ? stored.data : DEFAULT_PREFERENCES;
  } catch {
    return DEFAULT_PREFERENCES;
  }
}

export function savePreferences(
  prefs: ContactPreferences,
  storage: Pick<Storage, 'setItem'> | null = typeof localStorage === 'undefined' ? null : localStorage,
): void {
  try {
    storage?.setItem(KEY, JSON.stringify(prefs));
  } catch {
    // Storage full or disabled: the preferences last for this session only.
  }
}

// Prompt variables of an agent as a contact list supplies them, and how they are matched to the
// list's columns (exact name, then case/space/underscore-insensitive).

/** The upload's phone column supplies it. */
export const PHONE_VARIABLE = 'mobile_number';
/** The callee's name: always present for outbound agents (the service refuses to remove it). */
export const NAME_VARIABLE = 'callee_name';
/** Variables every outbound agent has, whatever its prompt declares. */
export const BUILT_IN_VARIABLES = [PHONE_VARIABLE, NAME_VARIABLE] as const;

/** Declared then used variables, once each, built-ins first, blanks dropped. */
export function agentVariables(declared: readonly string[], used: readonly string[]): string[] {
  return [
    ...new Set([...BUILT_IN_VARIABLES, ...declared, ...used].map((n) => n.trim()).filter((n) => n !== '')),
  ];
}

/** The variables a contact list maps to columns: all but mobile_number. */
export const mappableVariables = (names: readonly string[]): string[] => [
  ...new Set(names.map((n) => n.trim()).filter((n) => n !== '' && n !== PHONE_VARIABLE)),
];

/** A name compared without case, spaces, underscores or dashes ("Due Date" ~ "due_date"). */
export const looseName = (name: string): string => name.toLowerCase().replace(/[\s_-]+/g, '');

/** The column of `columns` named exactly `variable`, else the same loosely, else null. */
export function matchColumn(
  variable: string,
  columns: readonly string[],
): { column: string; how: 'exact' | 'similar' } | null {
  const exact = columns.find((c) => c === variable) ?? columns.find((c) => c.trim() === variable);
  if (exact !== undefined) return { column: exact, how: 'exact' };
  const loose = looseName(variable);
  const similar = columns.find((c) => looseName(c) === loose);
  return similar === undefined ? null : { column: similar, how: 'similar' };
}

import type { AgentListItem } from '../../../shared/service/agent.ts';

/** The phone column supplies it: never a column to map. */
const PHONE_VARIABLE = 'mobile_number';

/** A list row's declared custom variables (an object of names or a list of names), or []. */
export function declaredVariables(row: Pick<AgentListItem, 'custom_variables'>): string[] {
  const v = row.custom_variables;
  if (!v) return [];
  return Array.isArray(v) ? v : Object.keys(v);
}

/** The variables a contact list maps: once each, in order, without the phone number's. */
export function mappableVariables(names: readonly string[]): string[] {
  return [...new Set(names.map((n) => n.trim()).filter((n) => n !== '' && n !== PHONE_VARIABLE))];
}

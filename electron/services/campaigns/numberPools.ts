// Number pools in the builder: named and with their numbers, never a bare id.
/**
 * A pool as the operator knows it: the service gives pools no name, so it is the display name its
 * numbers share ("India outbound 2233", "India outbound 2234" → "India outbound"), with the numbers.
 */
export function poolDetail(
  id: string,
  numbers: ReadonlyArray<{ number: string; numberPoolId: string | null; label: string | null }>,
): { id: string; name: string; numbers: string[] } {
  const own = numbers.filter((n) => n.numberPoolId === id);
  const labels = own.map((n) => n.label?.trim() ?? '').filter(Boolean);
  let prefix = labels.length === own.length && labels.length > 0 ? labels[0]! : '';
  for (const l of labels) while (prefix && !l.startsWith(prefix)) prefix = prefix.slice(0, -1);
  // Cut back to a whole word, dropping the numbers' own endings.
  const name = (labels.every((l) => l === prefix) ? prefix : prefix.replace(/\S*$/, '')).trim();
  return {
    id,
    name: name || `Pool of ${own.length} number${own.length === 1 ? '' : 's'}`,
    numbers: own.map((n) => n.number),
  };
}

// The filter form's values (local days, typed numbers) as the contract's filter fields.

/** "2026-11-02" (local day) ↔ the ISO instant of its local midnight; `to` is the next midnight (exclusive). */
export function dayToIso(day: string, next: boolean): string | undefined {
  if (!day) return undefined;
  const at = new Date(`${day}T00:00:00`);
  if (Number.isNaN(at.getTime())) return undefined;
  if (next) at.setDate(at.getDate() + 1);
  return at.toISOString();
}
export function isoToDay(iso: string | undefined, next: boolean): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (next) at.setDate(at.getDate() - 1);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}
export function numberOrUndefined(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

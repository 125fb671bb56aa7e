// A bench's figures against its goals: each goal printed as met / NOT met with the machine's load
// average (1, 5, 15 min) at the time, and the percentile and rounding the sync bench's parts share.
import { loadavg } from 'node:os';

export const load = () => loadavg().map((l) => +l.toFixed(2));
export const round = (n: number, d = 2) => +n.toFixed(d);
export const goal = (name: string, value: number, limit: number, unit: string) => {
  const met = value <= limit;
  console.log(
    `GOAL ${name}: ${round(value)} ${unit} (goal ≤ ${limit} ${unit}) ${met ? 'met' : 'NOT met'} — load ${load().join(' ')}`,
  );
  return { value: round(value), goal: limit, met, load: load() };
};
export const pct = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

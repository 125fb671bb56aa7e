// Charts and the waveform draw on canvases, which cannot read CSS variables themselves: they get
// the theme's colours (light or dark, from the OS) when they are drawn.

export function cssVar(name: string, fallback = '#888888'): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

/** Distinct series colours from the theme, in a fixed order. */
export const SERIES_VARS = [
  '--accent',
  '--success',
  '--warning',
  '--danger',
  '--text-muted',
  '--accent-text',
] as const;

export const seriesColours = (): string[] => SERIES_VARS.map((v) => cssVar(v));

// WCAG 2.1 contrast ratios of the theme's colour tokens (pure, so a unit test can check every pair
// without a browser).

/** "#rgb" or "#rrggbb" → [r, g, b] in 0..255. */
export function parseHex(hex: string): [number, number, number] {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) throw new Error(`not a hex colour: ${hex}`);
  const digits = m[1]!.length === 3 ? [...m[1]!].map((d) => d + d).join('') : m[1]!;
  return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)) as [number, number, number];
}

/** Relative luminance (WCAG 2.1 definition). */
export function luminance(hex: string): number {
  const [r, g, b] = parseHex(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Contrast ratio of two colours, 1..21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

export interface ThemeTokens {
  light: Record<string, string>;
  dark: Record<string, string>;
}

const tokensIn = (block: string): Record<string, string> =>
  Object.fromEntries(
    [...block.matchAll(/(--[\w-]+)\s*:\s*(#[0-9a-f]{3,6})\s*;/gi)].map((m) => [m[1]!, m[2]!]),
  );

/**
 * The hex colour tokens of theme.css: `light` from the top-level `:root` block, `dark` from the
 * `:root` inside `@media (prefers-color-scheme: dark)` (dark tokens override light ones).
 */
export function parseThemeTokens(css: string): ThemeTokens {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const media = text.indexOf('@media (prefers-color-scheme: dark)');
  if (media < 0) throw new Error('theme.css has no dark block');
  const lightBlock = /:root\s*\{([^}]*)\}/.exec(text.slice(0, media));
  const darkBlock = /:root\s*\{([^}]*)\}/.exec(text.slice(media));
  if (!lightBlock || !darkBlock) throw new Error('theme.css: :root blocks not found');
  const light = tokensIn(lightBlock[1]!);
  return { light, dark: { ...light, ...tokensIn(darkBlock[1]!) } };
}

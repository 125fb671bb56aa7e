import { describe, expect, it } from 'vitest';
import themeCss from './theme.css?raw';
import { contrastRatio, parseHex, parseThemeTokens } from './contrast.ts';

// Every foreground/background pair of theme tokens the app draws, with the WCAG 2.1 AA minimum it
// must meet: 4.5:1 for text (1.4.3), 3:1 for the parts of controls, focus rings and chart colours
// (1.4.11). A new pairing in the CSS gets a line here.

const TEXT = 4.5;
const UI = 3;

/** Surfaces that body text sits on. */
const surfaces = ['--bg', '--surface', '--surface-2', '--surface-hover', '--sidebar-bg', '--sidebar-active'];

const pairs: Array<[fg: string, bg: string, min: number]> = [
  ...['--text', '--text-muted', '--text-faint'].flatMap((fg) =>
    surfaces.map((bg) => [fg, bg, TEXT] as [string, string, number]),
  ),
  // Text on tinted backgrounds: pressed summary figures, the phone column, the jump target row,
  // notices, hovered sidebar links.
  ['--text', '--accent-soft', TEXT],
  ['--text-muted', '--accent-soft', TEXT],
  ['--text', '--warning-soft', TEXT],
  ['--text-muted', '--warning-soft', TEXT],
  ['--text', '--info-soft', TEXT],
  ['--text', '--danger-soft', TEXT],
  ['--text', '--sidebar-hover', TEXT],
  ['--text-muted', '--sidebar-hover', TEXT],
  // Coloured text: links, badges, status words, errors, warnings.
  ['--accent-text', '--surface', TEXT],
  ['--accent-text', '--surface-2', TEXT],
  ['--accent-text', '--accent-soft', TEXT],
  ['--accent-text', '--warning-soft', TEXT],
  ['--on-accent', '--accent', TEXT],
  ['--on-accent', '--accent-hover', TEXT],
  ['--on-danger', '--danger', TEXT],
  ['--on-danger', '--danger-hover', TEXT],
  ['--success', '--success-soft', TEXT],
  ['--success', '--surface', TEXT],
  ['--success', '--sidebar-bg', TEXT],
  ['--danger', '--danger-soft', TEXT],
  ['--danger', '--surface', TEXT],
  ['--danger', '--surface-2', TEXT],
  ['--warning', '--warning-soft', TEXT],
  ['--warning', '--surface', TEXT],
  ['--warning', '--sidebar-bg', TEXT],
  // Parts of controls, the focus ring and chart colours against the surfaces they sit on.
  ...['--focus', '--border-strong', '--accent', '--success', '--danger', '--warning', '--text-faint'].flatMap(
    (fg) =>
      ['--bg', '--surface', '--surface-2', '--sidebar-bg'].map(
        (bg) => [fg, bg, UI] as [string, string, number],
      ),
  ),
  ['--focus', '--accent-soft', UI],
  ['--focus', '--warning-soft', UI],
  // Reason bars (errors red, warnings amber) on their track.
  ['--danger', '--surface-hover', UI],
  ['--warning', '--surface-hover', UI],
];

const tokens = parseThemeTokens(themeCss);

describe('theme colour contrast (WCAG 2.1 AA)', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`every token pair of the ${theme} theme meets its minimum ratio`, () => {
      const failures: string[] = [];
      for (const [fg, bg, min] of pairs) {
        const a = tokens[theme][fg];
        const b = tokens[theme][bg];
        if (!a || !b) {
          failures.push(`${fg} on ${bg}: token missing`);
          continue;
        }
        const ratio = contrastRatio(a, b);
        if (ratio < min) failures.push(`${fg} ${a} on ${bg} ${b}: ${ratio.toFixed(2)}:1 < ${min}:1`);
      }
      expect(failures).toEqual([]);
    });
  }
});

/** Hue (degrees) of a hex colour. */
function hue(hex: string): number {
  const [r, g, b] = parseHex(hex).map((v) => v / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

describe('warnings and errors', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`are told apart by colour in the ${theme} theme (amber, not the error red)`, () => {
      const warning = tokens[theme]['--warning']!;
      const danger = tokens[theme]['--danger']!;
      const apart = Math.abs(hue(warning) - hue(danger));
      expect(Math.min(apart, 360 - apart)).toBeGreaterThanOrEqual(25);
    });
  }
});

describe('contrastRatio', () => {
  it('gives the WCAG figures for known pairs', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#fff', '#fff')).toBe(1);
    // The pair the issue reported (axe: 4.43:1): the old "Valid" badge colours, just under 4.5.
    expect(contrastRatio('#17803a', '#e5f5ea')).toBeCloseTo(4.44, 2);
    expect(contrastRatio('#e5f5ea', '#17803a')).toBe(contrastRatio('#17803a', '#e5f5ea'));
  });
});

describe('parseThemeTokens', () => {
  it('reads the light block and lets the dark block override it', () => {
    const t = parseThemeTokens(
      ':root { --a: #111111; --b: #222; /* --c: #333; */ }\n@media (prefers-color-scheme: dark) { :root { --a: #eeeeee; } }',
    );
    expect(t.light).toEqual({ '--a': '#111111', '--b': '#222' });
    expect(t.dark).toEqual({ '--a': '#eeeeee', '--b': '#222' });
  });
  it('finds both themes in theme.css', () => {
    expect(Object.keys(tokens.light).length).toBeGreaterThan(20);
    expect(tokens.dark['--text']).not.toBe(tokens.light['--text']);
  });
});

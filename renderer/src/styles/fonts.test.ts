import { describe, expect, it } from 'vitest';
import fontsCss from './fonts.css?raw';
import themeCss from './theme.css?raw';

// The bundled Indic faces load only when their script is on screen (each has a unicode-range;
// without one a face would be fetched for every page and win over the system font for Latin
// text), and the UI font stack names every bundled family.

const faces = [...fontsCss.matchAll(/@font-face\s*\{([^}]*)\}/g)].map((m) => m[1]!);
const family = (face: string) => /font-family:\s*'([^']+)'/.exec(face)?.[1];

describe('bundled fonts', () => {
  it('has the eight Indic scripts, regular and semibold', () => {
    const families = new Set(faces.map(family));
    expect([...families].sort()).toEqual(
      ['Bengali', 'Devanagari', 'Gujarati', 'Gurmukhi', 'Kannada', 'Malayalam', 'Tamil', 'Telugu'].map(
        (s) => `Noto Sans ${s}`,
      ),
    );
    expect(faces).toHaveLength(16);
  });

  it('every face has a unicode-range that does not cover Latin', () => {
    for (const face of faces) {
      const range = /unicode-range:\s*([^;]+);/.exec(face)?.[1];
      expect(range, family(face)).toBeDefined();
      // No range starting in Basic Latin / Latin-1.
      expect(
        range!
          .split(',')
          .map((r) => parseInt(r.trim().slice(2), 16))
          .every((start) => start >= 0x100),
        family(face),
      ).toBe(true);
    }
  });

  it('the UI font stack names every bundled family', () => {
    const stack = /--font-indic:([^;]+);/.exec(themeCss)?.[1] ?? '';
    for (const face of faces) expect(stack).toContain(`'${family(face)}'`);
  });
});

import { describe, expect, it } from 'vitest';
import {
  hasBidiControl,
  jsonLine,
  showBidiControls,
  stripBidiControls,
  terminalOutput,
  terminalText,
} from './visibleText.ts';

const ALL_BIDI = '\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061C';

describe('visible text', () => {
  it('names every bidi control, and finds or removes them', () => {
    expect(showBidiControls('+91\u202E0123456789')).toBe('+91⟨RLO⟩0123456789');
    expect(showBidiControls(ALL_BIDI)).toBe('⟨LRE⟩⟨RLE⟩⟨PDF⟩⟨LRO⟩⟨RLO⟩⟨LRI⟩⟨RLI⟩⟨FSI⟩⟨PDI⟩⟨LRM⟩⟨RLM⟩⟨ALM⟩');
    for (const c of ALL_BIDI) expect(hasBidiControl(`a${c}b`)).toBe(true);
    expect(hasBidiControl('राहुल Ahmed أحمد')).toBe(false);
    expect(stripBidiControls(`Ra${ALL_BIDI}hul`)).toBe('Rahul');
    expect(showBidiControls('Rahul')).toBe('Rahul');
  });

  it('writes C0, DEL and C1 controls as escapes for a terminal, never raw', () => {
    const hostile = '\u001b[2J\u001b]0;owned\u0007Agent\u009b31m\u007f\r\n\tx\u202E';
    const shown = terminalText(hostile);
    expect(shown).toBe('\\x1b[2J\\x1b]0;owned\\x07Agent\\x9b31m\\x7f\\r\\n\\tx⟨RLO⟩');
    // eslint-disable-next-line no-control-regex
    expect(shown).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(terminalText('Sales bot — राहुल')).toBe('Sales bot — राहुल');
  });

  it('keeps line feeds and tabs in whole output, and nothing else', () => {
    expect(terminalOutput('a\tb\nc\u001b[31m\r\u202E')).toBe('a\tb\nc\\x1b[31m\\r⟨RLO⟩');
  });

  it('writes JSON lines whose control and bidi characters are escapes of the same value', () => {
    const value = { name: '\u001b]0;x\u0007\u009b\u007f\u202E\n' };
    const line = jsonLine(value);
    // eslint-disable-next-line no-control-regex
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    expect(JSON.parse(line)).toEqual(value);
  });
});

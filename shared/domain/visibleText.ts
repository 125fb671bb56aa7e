// Text from outside (a contacts file, the calling service) shown where people read it. Controls
// that change how text looks without being seen themselves are made visible, so "+91\u202E0123456789"
// cannot pass for "+919876543210" and an error message cannot clear a terminal.

/** Bidi controls: embeddings and overrides (U+202A–U+202E), isolates (U+2066–U+2069), marks. */
const BIDI_NAMES: Readonly<Record<string, string>> = {
  '\u202A': 'LRE',
  '\u202B': 'RLE',
  '\u202C': 'PDF',
  '\u202D': 'LRO',
  '\u202E': 'RLO',
  '\u2066': 'LRI',
  '\u2067': 'RLI',
  '\u2068': 'FSI',
  '\u2069': 'PDI',
  '\u200E': 'LRM',
  '\u200F': 'RLM',
  '\u061C': 'ALM',
};
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;
const HAS_BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;

/** True when the text holds any bidi control. */
export const hasBidiControl = (text: string): boolean => HAS_BIDI.test(text);

/** Each bidi control replaced by its name in angle brackets: "+91⟨RLO⟩0123456789". */
export const showBidiControls = (text: string): string =>
  HAS_BIDI.test(text) ? text.replace(BIDI, (c) => `⟨${BIDI_NAMES[c] ?? 'BIDI'}⟩`) : text;

/** The text without its bidi controls (what a voice agent would read: they are never spoken). */
export const stripBidiControls = (text: string): string =>
  HAS_BIDI.test(text) ? text.replace(BIDI, '') : text;

// C0 controls (ESC among them), DEL and C1 controls (0x9B is a one-byte CSI on some terminals).
// Matching control characters is what these expressions are for.
/* eslint-disable no-control-regex */
const CONTROLS = /[\u0000-\u001F\u007F-\u009F]/g;
const HAS_CONTROL = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;
/* eslint-enable no-control-regex */
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const escapeControl = (c: string): string =>
  NAMED[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/**
 * Service-supplied text for a terminal: every C0/C1 control written as an escape ("\x1b", "\n"),
 * bidi controls named ("⟨RLO⟩"). Nothing the service sends can move the cursor, clear the screen,
 * set the window title or reorder what follows.
 */
export function terminalText(text: string): string {
  if (!HAS_CONTROL.test(text)) return text;
  return showBidiControls(text.replace(CONTROLS, escapeControl));
}

// The same, but line breaks and tabs kept: for whole output the program lays out itself.
/* eslint-disable no-control-regex */
const LAYOUT_CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;
const HAS_LAYOUT_CONTROL =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;
/* eslint-enable no-control-regex */

/**
 * Whole terminal output (the CLI's last guard, after terminalText at each point that prints
 * service text): every control but line feed and tab made visible as in terminalText.
 */
export function terminalOutput(text: string): string {
  if (!HAS_LAYOUT_CONTROL.test(text)) return text;
  return showBidiControls(text.replace(LAYOUT_CONTROLS, escapeControl));
}

const JSON_UNSAFE = /[\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/**
 * A value as one line of JSON for a terminal: JSON.stringify escapes C0 controls but writes DEL,
 * C1 controls (0x9B is a CSI) and bidi controls raw; they become \u escapes (the same value).
 */
export const jsonLine = (value: unknown): string =>
  JSON.stringify(value).replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

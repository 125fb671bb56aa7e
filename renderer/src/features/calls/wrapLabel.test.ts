import { describe, expect, it } from 'vitest';
import { wrapLabel } from './wrapLabel.ts';

describe('wrapLabel', () => {
  it('keeps a short label on one line', () => {
    expect(wrapLabel('Voicemail')).toBe('Voicemail');
  });

  it('breaks a long label at spaces into lines of at most 24 characters, losing no word', () => {
    const lines = wrapLabel('Not called (campaign time ended)');
    expect(lines).toEqual(['Not called (campaign', 'time ended)']);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(24);
    expect(wrapLabel('Not called (terminated)')).toBe('Not called (terminated)');
  });

  it('gives a word longer than a line its own line', () => {
    expect(wrapLabel('Unreachable-number-format error', 10)).toEqual(['Unreachable-number-format', 'error']);
  });
});

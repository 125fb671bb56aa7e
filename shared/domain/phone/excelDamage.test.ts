import { describe, expect, it } from 'vitest';
import { hasFloatSuffix, isScientificNotation, phoneText } from './excelDamage.ts';

describe('Excel damage to phone cells', () => {
  it('spots scientific notation, which lost digits for good', () => {
    for (const t of ['9.19877E+11', '9.87654E+09', '9,19877E+11', '1E10', '-9.1E+11', '9.19877e11'])
      expect(isScientificNotation(t)).toBe(true);
    for (const t of ['9198765432', '+91 98765 43210', 'E911', '9.19877'])
      expect(isScientificNotation(t)).toBe(false);
  });
  it('spots a float suffix on long digit strings', () => {
    expect(hasFloatSuffix('919876543210.0')).toBe(true);
    expect(hasFloatSuffix('9876543210.00')).toBe(true);
    expect(hasFloatSuffix('98765.43210')).toBe(false);
    expect(hasFloatSuffix('1.0')).toBe(false);
  });
  it('trims and drops the apostrophe Excel users type to keep "+91…" as text', () => {
    expect(phoneText("  '+91 98765 43210 ")).toBe('+91 98765 43210');
    expect(phoneText("' 9876543210")).toBe('9876543210');
    expect(phoneText('   ')).toBe('');
  });
  it('drops the tel: scheme the calls CSV writes numbers with (also behind an apostrophe, any case)', () => {
    expect(phoneText('tel:+919002855525')).toBe('+919002855525');
    expect(phoneText(" 'TEL:+1-202-555-0143 ")).toBe('+1-202-555-0143');
    expect(phoneText('telephone')).toBe('telephone');
  });
});

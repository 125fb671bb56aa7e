import { describe, expect, it } from 'vitest';
import { callSnippet, searchTerms } from './snippet.ts';

const marked = (parts: ReturnType<typeof callSnippet>) =>
  parts?.map((p) => (p.hit ? `[${p.text}]` : p.text)).join('') ?? null;

describe('call search snippets', () => {
  it('folds case and diacritics and makes only the last word a prefix, as the index does', () => {
    expect(searchTerms('José  payMent')).toEqual({ words: ['jose'], prefix: 'payment' });
    expect(marked(callSnippet(['Jose said the payments are done'], 'JOSÉ pay'))).toBe(
      '[Jose] said the [payments] are done',
    );
    // "pay" as a full word (not the last one typed) does not match "payments".
    expect(marked(callSnippet(['the payments are done'], 'pay the'))).toBe('[the] payments are done');
  });

  it('cuts a long text to a window around the first hit, with ellipses where it was cut', () => {
    const text = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    expect(marked(callSnippet([text.replace('w20', 'loan')], 'loan'))).toBe(
      '…w18 w19 [loan] w21 w22 w23 w24 w25 w26 w27 w28 w29…',
    );
    expect(marked(callSnippet([text.replace('w1 ', 'loan ')], 'loan'))).toBe(
      'w0 [loan] w2 w3 w4 w5 w6 w7 w8 w9 w10 w11…',
    );
    expect(marked(callSnippet([text.replace('w39', 'loan')], 'loan'))).toBe(
      '…w28 w29 w30 w31 w32 w33 w34 w35 w36 w37 w38 [loan]',
    );
  });

  it('takes the column with most distinct words hit: a name or a number when the transcript has none', () => {
    expect(
      marked(
        callSnippet(['Hello, is this a good time?', 'Rahul Sharma', '919812345678 9812345678'], 'rahul sha'),
      ),
    ).toBe('[Rahul] [Sharma]');
    expect(marked(callSnippet(['', null, '919812345678 9812345678'], '98123'))).toBe(
      '919812345678 [9812345678]',
    );
    expect(callSnippet([null, '', null], 'x')).toBeNull();
  });
});

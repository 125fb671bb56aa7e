import { describe, expect, it } from 'vitest';
import { extractPlaceholders, promptTextFromSections, substitutePlaceholders } from './template.ts';

describe('@{{var}} placeholders', () => {
  it('extracts each variable once, in order, tolerating spaces', () => {
    expect(
      extractPlaceholders(
        'Hi @{{callee_name}}, pay @{{ loan_amount }} by @{{due_date}}. Bye @{{callee_name}}',
      ),
    ).toEqual(['callee_name', 'loan_amount', 'due_date']);
    expect(extractPlaceholders('{{not_one}} @{not} @{{}} email@{{x')).toEqual([]);
    expect(extractPlaceholders('<span data-id="{{callee_name}}">@{{callee_name}}</span>')).toEqual([
      'callee_name',
    ]);
  });

  it('substitutes values and reports the missing ones', () => {
    const r = substitutePlaceholders('Dear @{{callee_name}}, @{{loan_amount}} due @{{due_date}}', {
      callee_name: 'Asha',
      loan_amount: 25000,
      due_date: '',
    });
    expect(r.text).toBe('Dear Asha, 25000 due @{{due_date}}');
    expect(r.missing).toEqual(['due_date']);
    expect(substitutePlaceholders('a @{{x}} b', {}, { missing: 'empty' }).text).toBe('a  b');
  });

  it('does not treat inherited object keys as values', () => {
    expect(substitutePlaceholders('@{{toString}}', {}).missing).toEqual(['toString']);
  });

  it('joins prompt sections with their titles', () => {
    expect(
      promptTextFromSections([
        { title: 'Task', content: 'Call @{{callee_name}}.' },
        { title: '', content: 'Be brief.' },
        { title: 'Empty', content: '' },
      ]),
    ).toBe('## Task\nCall @{{callee_name}}.\n\nBe brief.\n\n## Empty');
  });
});

import { describe, expect, it } from 'vitest';
import { agentVariables, mappableVariables, matchColumn } from './agentVariables.ts';
import { placeholderOccurrences, splitPrompt } from './template.ts';

describe('agent variables', () => {
  it('always have mobile_number and callee_name first, then declared, then used, once each', () => {
    expect(agentVariables(['city', 'callee_name'], ['due_date', 'city', ' '])).toEqual([
      'mobile_number',
      'callee_name',
      'city',
      'due_date',
    ]);
    expect(mappableVariables(['mobile_number', 'callee_name', 'city', 'city'])).toEqual([
      'callee_name',
      'city',
    ]);
  });

  it('match a column exactly, then ignoring case, spaces and underscores, else not at all', () => {
    const columns = ['Name', 'due_date', 'Due Date', 'LOAN AMOUNT'];
    expect(matchColumn('due_date', columns)).toEqual({ column: 'due_date', how: 'exact' });
    expect(matchColumn('loan_amount', columns)).toEqual({ column: 'LOAN AMOUNT', how: 'similar' });
    expect(matchColumn('name', columns)).toEqual({ column: 'Name', how: 'similar' });
    expect(matchColumn('city', columns)).toBeNull();
  });
});

describe('prompt pieces', () => {
  it('split text and placeholders so that joining them gives the prompt back', () => {
    const text = 'Hi @{{ callee_name }}, pay @{{amount}} by @{{due_date}}.';
    const parts = splitPrompt(text);
    expect(parts.map((p) => p.text).join('')).toBe(text);
    expect(
      parts.filter((p) => p.kind === 'placeholder').map((p) => p.kind === 'placeholder' && p.name),
    ).toEqual(['callee_name', 'amount', 'due_date']);
    expect(splitPrompt('')).toEqual([]);
  });

  it('say on which line and under which section each placeholder occurs', () => {
    const occ = placeholderOccurrences(
      'Intro @{{callee_name}}\n## Task\nPay @{{amount}}\n\n## FAQ\n@{{amount}} @{{amount}}',
    );
    expect(occ.get('callee_name')).toEqual([{ line: 1, section: null, excerpt: 'Intro @{{callee_name}}' }]);
    expect(occ.get('amount')).toEqual([
      { line: 3, section: 'Task', excerpt: 'Pay @{{amount}}' },
      { line: 6, section: 'FAQ', excerpt: '@{{amount}} @{{amount}}' },
    ]);
  });
});

describe('occurrence excerpts', () => {
  it('show the text around the placeholder on a long line, marked where cut', () => {
    const line = `${'a'.repeat(200)} @{{due_date}} ${'b'.repeat(200)}`;
    const [occ] = placeholderOccurrences(line).get('due_date') ?? [];
    expect(occ?.excerpt).toMatch(/^…a+ @\{\{due_date\}\} b+…$/);
    expect(occ!.excerpt.length).toBeLessThanOrEqual(2 * 70 + '@{{due_date}}'.length + 2);
  });
});

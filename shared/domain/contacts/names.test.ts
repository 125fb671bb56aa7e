import { describe, expect, it } from 'vitest';
import { cleanName, firstNamePreview } from './names.ts';

describe('names', () => {
  it('trims and collapses spaces (tabs, non-breaking spaces too)', () => {
    expect(cleanName('  Rahul   Sharma ')).toBe('Rahul Sharma');
    expect(cleanName('Rahul\t\u00a0Sharma')).toBe('Rahul Sharma');
    expect(cleanName('राहुल  शर्मा')).toBe('राहुल शर्मा');
    expect(cleanName('Priya Gupta')).toBe('Priya Gupta');
  });

  it.each([
    ['Mr Rajesh Kumar', 'Rajesh'],
    ['Mr. Rajesh Kumar', 'Rajesh'],
    ['Dr. Mrs. Anjali Singh', 'Anjali'],
    ['Shri Manoj Tiwari', 'Manoj'],
    ['Smt. Sunita Devi', 'Sunita'],
    ['Sharma, Rahul', 'Rahul'],
    ['  MR.   RAHUL SHARMA ', 'Rahul'],
    ['priya gupta', 'Priya'],
    ["Jessica D'Souza", 'Jessica'],
    ['McDonald Ronald', 'McDonald'],
    ['राहुल शर्मा', 'राहुल'],
    ['Kumari', 'Kumari'],
    ['Prof. Abhishek K. Rao', 'Abhishek'],
    ['', ''],
  ])('first name of %j is %j', (name, first) => {
    expect(firstNamePreview(name)).toBe(first);
  });
});

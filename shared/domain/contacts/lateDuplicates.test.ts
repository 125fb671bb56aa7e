import { describe, expect, it } from 'vitest';
import { applyEdits, applyLateDuplicates, lateDuplicateEdits } from './lateDuplicates.ts';

// Ours, RFC 4180: quoted cells with commas, doubled quotes, line breaks and non-ASCII text before
// and between the rows to patch.
const rejects =
  'Row,Reasons,Name,Mobile Number\n' +
  '2,phone_invalid,"Sharma, ""Raj""\n2,dup",123\n' +
  '3,"variable_missing:Loan Amount, Due Date",राहुल,+919876543210\n' +
  '5,"duplicate:row 9; phone_landline, x","a\n""b""",x\n' +
  '7,phone_missing,"\n7,phone_missing,",\n' +
  '8,phone_invalid,José,1\n';

describe('late duplicates in the rejects file', () => {
  it('points the named rows at their duplicate, whatever quoting and text come before them', () => {
    const late: Array<[number, number]> = [
      [3, 11],
      [5, 12],
      [8, 13],
    ];
    expect(applyLateDuplicates(rejects, late)).toBe(
      'Row,Reasons,Name,Mobile Number\n' +
        '2,phone_invalid,"Sharma, ""Raj""\n2,dup",123\n' +
        '3,"duplicate:row 11; variable_missing:Loan Amount, Due Date",राहुल,+919876543210\n' +
        '5,"duplicate:row 12; phone_landline, x","a\n""b""",x\n' +
        '7,phone_missing,"\n7,phone_missing,",\n' +
        '8,duplicate:row 13; phone_invalid,José,1\n',
    );
  });

  it('edits only the Reasons bytes (a line break inside a quoted cell starts no record)', () => {
    const bytes = new TextEncoder().encode(rejects);
    const edits = lateDuplicateEdits(bytes, [[7, 2]]);
    expect(edits).toHaveLength(1);
    const [edit] = edits;
    expect(new TextDecoder().decode(bytes.subarray(edit?.start, edit?.end))).toBe('phone_missing');
    expect(new TextDecoder().decode(applyEdits(bytes, edits))).toBe(
      rejects.replace('7,phone_missing,"', '7,duplicate:row 2; phone_missing,"'),
    );
  });

  it('says which rows it could not find', () => {
    expect(() => applyLateDuplicates(rejects, [[4, 2]])).toThrow(/rows 4 are not in the rejects text/);
  });
});

import { writeFileSync } from 'node:fs';
import path from 'node:path';

// A generated contact list for campaign tests (written here so nothing depends on files outside the
// repo): the columns the sandbox agents' prompts use, unique valid Indian mobile numbers, and every
// `invalidEvery`-th row with an unusable phone so the list has invalid rows too.

const FIRST = ['Asha', 'Ravi', 'Priya', 'Arjun', 'Meera', 'Kiran', 'Sunil', 'Anita', 'Vikram', 'Leela'];
const LAST = ['Sharma', 'Iyer', 'Patel', 'Reddy', 'Nair', 'Gupta', 'Das', 'Khan', 'Singh', 'Menon'];
const CITIES = ['Pune', 'Chennai', 'Kolkata', 'Jaipur', 'Kochi', 'Indore'];
const LANGUAGES = ['English', 'Hindi', 'Tamil', 'Marathi'];

export interface CampaignList {
  file: string;
  rows: number;
  valid: number;
  invalid: number;
  /** Row 2's name (the first data row), to check the preview. */
  firstName: string;
  /** Valid rows with an empty Loan Amount (the service drops them with "Remove invalid rows" on). */
  emptyLoan: number;
}

/** Writes `<dir>/<name>.csv` with `rows` data rows; `seed` keeps numbers apart between lists. */
export function writeCampaignList(
  dir: string,
  name: string,
  rows: number,
  seed: number,
  invalidEvery = 0,
  /** Every `emptyLoanEvery`-th row (from row 1) leaves Loan Amount empty; 0: none. */
  emptyLoanEvery = 0,
): CampaignList {
  const lines = ['Name,Mobile Number,Loan Amount,Due Date,City,Language,Customer ID'];
  let invalid = 0;
  let emptyLoan = 0;
  for (let i = 0; i < rows; i++) {
    const fullName = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`;
    const bad = invalidEvery > 0 && i > 0 && i % invalidEvery === 0;
    if (bad) invalid++;
    const phone = bad ? '12345' : `+91 9${String(seed % 10)}${String(i).padStart(8, '0')}`;
    const day = String((i % 28) + 1).padStart(2, '0');
    const noLoan = emptyLoanEvery > 0 && i % emptyLoanEvery === 1;
    if (noLoan && !bad) emptyLoan++;
    lines.push(
      [
        fullName,
        phone,
        noLoan ? '' : String(5000 + ((i * 37) % 45000)),
        `${day}/12/2026`,
        CITIES[i % CITIES.length],
        LANGUAGES[i % LANGUAGES.length],
        `C${seed}-${i}`,
      ].join(','),
    );
  }
  const file = path.join(dir, `${name}.csv`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return {
    file,
    rows,
    valid: rows - invalid,
    invalid,
    firstName: `${FIRST[0]} ${LAST[0]}`,
    emptyLoan,
  };
}

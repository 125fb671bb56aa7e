// Test data: campaign CSVs for the seeded "Loan Repayment Reminder" agent.

export const loanVariablesMap = {
  callee_name: 'Name',
  loan_amount: 'Loan Amount',
  due_date: 'Due Date',
  language: 'Language',
  city: 'City',
};

export interface CsvOptions {
  /** Row numbers (1-based) to make invalid, with how. */
  badPhoneRows?: number[];
  emptyNameRows?: number[];
  duplicateRows?: number[];
}

/** A clean CSV of `rows` contacts with distinct valid Indian mobile numbers. */
export function loanCsv(rows: number, o: CsvOptions = {}): string {
  const bad = new Set(o.badPhoneRows);
  const emptyName = new Set(o.emptyNameRows);
  const dup = new Set(o.duplicateRows);
  const lines = ['Mobile Number,Name,Loan Amount,Due Date,Language,City'];
  for (let i = 1; i <= rows; i++) {
    const phone = bad.has(i) ? '12345' : dup.has(i) ? phoneFor(1) : phoneFor(i);
    const name = emptyName.has(i) ? '' : `"Customer ${i}, Jr"`;
    lines.push(`${phone},${name},${(i % 50) * 1000 + 5000},15/12/2026,Hindi,Pune`);
  }
  return `${lines.join('\n')}\n`;
}

export function phoneFor(i: number): string {
  return `+9198${String(i).padStart(8, '0')}`;
}

export interface UploadFields {
  agent_id: string;
  campaign_name?: string;
  country_code?: string;
  variables_map?: string;
  remove_invalid_rows?: string;
  call_config?: string;
  campaign_start_time?: string;
  campaign_end_time?: string;
}

export function uploadForm(csv: string, fields: UploadFields, fileName = 'contacts.csv'): FormData {
  const form = new FormData();
  form.set('file', new Blob([csv], { type: 'text/csv' }), fileName);
  const all: Record<string, string | undefined> = {
    campaign_name: 'Test campaign',
    country_code: '+91',
    variables_map: JSON.stringify(loanVariablesMap),
    ...fields,
  };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) form.set(k, v);
  return form;
}

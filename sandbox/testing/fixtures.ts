// Test data: campaign CSVs for the seeded "Loan Repayment Reminder" agent.
import { formatCampaignTime, instantToZoned } from '../../shared/domain/dates.ts';

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

/** `DD/MM/YYYY, HH:MM` in Asia/Kolkata, `hours` after `fromMs` (real now by default). */
export function campaignTimeIn(hours: number, fromMs = Date.now()): string {
  return formatCampaignTime(instantToZoned(fromMs + hours * 3_600_000, 'Asia/Kolkata'));
}

/**
 * The upload form. The fields the service requires default to a campaign window from one hour to
 * 30 days after real now (tests that move the clock further pass their own) and a call_config with
 * the time zone.
 */
export function uploadForm(csv: string, fields: UploadFields, fileName = 'contacts.csv'): FormData {
  const form = new FormData();
  form.set('file', new Blob([csv], { type: 'text/csv' }), fileName);
  const all: Record<string, string | undefined> = {
    campaign_name: 'Test campaign',
    country_code: '+91',
    variables_map: JSON.stringify(loanVariablesMap),
    campaign_start_time: campaignTimeIn(1),
    campaign_end_time: campaignTimeIn(30 * 24),
    call_config: JSON.stringify({ call_time: { timezone: 'Asia/Kolkata' } }),
    ...fields,
  };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) form.set(k, v);
  return form;
}

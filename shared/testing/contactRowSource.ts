// The rows of a generated contacts file, one at a time, each with its truth: phones in many
// spellings and damages, names, dates, amounts and notes drawn from contactsVocabulary.ts,
// deterministic for a seed.
import { seededRandom } from './seededRandom.ts';
import {
  ACCENTS,
  BIDI_PHONES,
  CITIES,
  DEVANAGARI,
  DOMAINS,
  FAMILY,
  FORMULA_NAMES,
  GIVEN,
  isFormula,
  LANGUAGES,
  MONTHS,
  NOTES,
  SCRIPT_NAMES,
  STD,
  TITLES,
  US_AS_IN_LANDLINE,
  US_INVALID_IN_IN,
  US_VALID_IN,
} from './contactsVocabulary.ts';
import { isLegacy } from './generatedEncoding.ts';
import { GENERATED_HEADER, PHONE_INDEX, VARIABLE_COLUMNS } from './contactsFormat.ts';
import type { GeneratorOptions, PhoneIssue, PhoneKind, RowTruth } from './contactsFormat.ts';

/** A 32-bit seed from a number or any text. */
function seedOf(seed: number | string): number {
  const text = `contacts:${String(seed)}`;
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

interface PooledNumber {
  e164: string;
  raw: string;
  kind: PhoneKind;
  /** National digits, for re-spelling. */
  national: string;
  landline: boolean;
  row: number;
}

interface Phone {
  raw: string;
  kind: PhoneKind;
  e164: string | null;
  issue: PhoneIssue | null;
  landline: boolean;
  repeats: number;
  national: string;
}

/** Rows of a generated file, one at a time (text of the record without its line end, and its truth). */
export function createRowSource(options: GeneratorOptions) {
  const random = seededRandom(seedOf(options.seed));
  const int = (n: number): number => Math.floor(random() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  const chance = (p: number): boolean => random() < p;
  const digits = (n: number): string => {
    let s = '';
    for (let i = 0; i < n; i++) s += int(10);
    return s;
  };
  const pool: PooledNumber[] = [];
  const POOL = 40_000;
  const delimiter = options.delimiter ?? ',';
  const newline = options.crlf ? '\r\n' : '\n';
  // Windows-1252 and the legacy (Big5, Shift_JIS …) encodings cannot hold bidi controls.
  const unicode = options.encoding !== 'windows-1252' && !isLegacy(options.encoding);
  const special = new RegExp(
    `["\\r\\n${delimiter === '\t' ? '\\t' : delimiter === '|' ? '\\|' : delimiter}]`,
  );

  const mobile = (): string => (chance(0.85) ? '9' + digits(9) : '70' + digits(8));
  const spellIndian = (m: string): string => {
    const a = m.slice(0, 5);
    const b = m.slice(5);
    switch (int(13)) {
      case 0:
      case 1:
        return `+91 ${a} ${b}`;
      case 2:
        return `+91${m}`;
      case 3:
        return `0${m}`;
      case 4:
        return `91-${m}`;
      case 5:
        return `${a}-${b}`;
      case 6:
      case 7:
        return m;
      case 8:
        return `+91-${a}-${b}`;
      case 9:
        return `0091 ${m}`;
      case 10:
        return `91 ${m}`;
      case 11:
        return `(+91) ${a} ${b}`;
      default:
        return `  ${a} ${b} `;
    }
  };
  const spellUsInternational = (u: string): string => {
    const [a, b, c] = [u.slice(0, 3), u.slice(3, 6), u.slice(6)];
    switch (int(4)) {
      case 0:
        return `+1 (${a}) ${b}-${c}`;
      case 1:
        return `+1 ${a}-${b}-${c}`;
      case 2:
        return `+1.${a}.${b}.${c}`;
      default:
        return `+1${u}`;
    }
  };
  const spellUsNational = (u: string): string =>
    chance(0.5)
      ? `(${u.slice(0, 3)}) ${u.slice(3, 6)}-${u.slice(6)}`
      : `${u.slice(0, 3)}-${u.slice(3, 6)}-${u.slice(6)}`;
  const usNumber = (areas: readonly string[]): string => pick(areas) + (2 + int(8)) + digits(6);
  const landline = (): string => pick(STD) + (2 + int(6)) + digits(7);
  const spellLandline = (n: string): string => {
    const [std, local] = [n.slice(0, 2), n.slice(2)];
    return chance(0.5) ? `0${std} ${local}` : chance(0.5) ? `+91 ${std} ${local}` : `0${std}-${local}`;
  };
  const junk = (): string => {
    switch (int(8)) {
      case 0:
        return digits(4 + int(3));
      case 1:
        return '98' + digits(3) + pick(['abcde', 'XXXXX', 'o1234']);
      case 2:
        return '0000000000';
      case 3:
        return pick(['N/A', 'na', '-', 'None', 'not given', '#N/A']);
      case 4:
        return '+91 ' + digits(12);
      case 5:
        return '+91 9' + digits(5);
      case 6:
        return '12345';
      default:
        return 'call office';
    }
  };

  const phone = (row: number): Phone => {
    const r = random();
    const none = { e164: null, landline: false, repeats: 0, national: '' };
    if (r < 0.05 && pool.length > 0) {
      const p = pool[int(pool.length)] as PooledNumber;
      let raw = p.raw;
      if (chance(0.5)) {
        if (p.kind === 'in_mobile') raw = spellIndian(p.national);
        else if (p.kind === 'us_international') raw = spellUsInternational(p.national);
        else if (p.kind === 'in_landline') raw = spellLandline(p.national);
      }
      return {
        raw,
        kind: p.kind,
        e164: p.e164,
        issue: null,
        landline: p.landline,
        repeats: p.row,
        national: p.national,
      };
    }
    if (r < 0.065) return { ...none, raw: chance(0.8) ? '' : '   ', kind: 'empty', issue: 'phone_missing' };
    if (r < 0.1) {
      const raw = junk(); // drawn either way: the rows after read the same random numbers
      if (r < 0.0995 || !unicode) return { ...none, raw, kind: 'junk', issue: 'phone_invalid' };
      const bidi = BIDI_PHONES[Math.min(3, Math.floor((r - 0.0995) * 8000))] as string;
      return { ...none, raw: bidi, kind: 'bidi', issue: 'phone_bidi_control' };
    }
    if (r < 0.105)
      return {
        ...none,
        raw: spellUsNational(usNumber(US_INVALID_IN_IN)),
        kind: 'us_invalid_in_in',
        issue: 'phone_invalid',
      };
    if (r < 0.115) {
      const m = mobile();
      const raw = chance(0.5) ? `${m[0]}.${m.slice(1, 6)}E+09` : `9.1${m.slice(0, 4)}E+11`;
      return { ...none, raw, kind: 'excel_scientific', issue: 'phone_scientific_notation' };
    }
    if (r < 0.12)
      return { ...none, raw: `91${mobile()}.0`, kind: 'excel_decimal', issue: 'phone_excel_decimal' };
    let p: Omit<PooledNumber, 'row'>;
    if (r < 0.17) {
      const u = usNumber(US_VALID_IN);
      p = {
        kind: 'us_international',
        national: u,
        raw: spellUsInternational(u),
        e164: `+1${u}`,
        landline: false,
      };
    } else if (r < 0.18) {
      const u = usNumber(US_AS_IN_LANDLINE);
      p = {
        kind: 'us_read_as_in_landline',
        national: u,
        raw: spellUsNational(u),
        e164: `+91${u}`,
        landline: true,
      };
    } else if (r < 0.195) {
      const n = landline();
      p = { kind: 'in_landline', national: n, raw: spellLandline(n), e164: `+91${n}`, landline: true };
    } else if (r < 0.2) {
      const n = landline();
      p = { kind: 'in_landline_zero_lost', national: n, raw: n, e164: `+91${n}`, landline: true };
    } else {
      const m = mobile();
      p = { kind: 'in_mobile', national: m, raw: spellIndian(m), e164: `+91${m}`, landline: false };
    }
    const pooled = { ...p, row };
    if (pool.length < POOL) pool.push(pooled);
    else pool[int(POOL)] = pooled;
    return {
      raw: p.raw,
      kind: p.kind,
      e164: p.e164,
      issue: null,
      landline: p.landline,
      repeats: 0,
      national: p.national,
    };
  };

  const script = isLegacy(options.encoding) ? SCRIPT_NAMES[options.encoding] : null;
  const name = (): string => {
    const r = random();
    if (r < 0.012) return '';
    // No draw of its own: the rows after read the same random numbers.
    if (r < 0.015) return FORMULA_NAMES[Math.min(2, Math.floor((r - 0.012) * 1000))] as string;
    if (r < 0.05) return pick(script ?? DEVANAGARI);
    if (r < 0.07) return pick(script ?? ACCENTS);
    const given = pick(GIVEN);
    const family = pick(FAMILY);
    const form = random();
    let s =
      form < 0.06
        ? `${family}, ${given}`
        : form < 0.12
          ? `${given} ${String.fromCharCode(65 + int(26))}. ${family}`
          : `${given} ${family}`;
    if (chance(0.25)) s = `${pick(TITLES)} ${s}`;
    const caseRoll = random();
    if (caseRoll < 0.08) s = s.toUpperCase();
    else if (caseRoll < 0.13) s = s.toLowerCase();
    if (chance(0.08)) s = ` ${s}  `;
    if (chance(0.05)) s = s.replace(' ', '   ');
    return s;
  };
  const grouped = (v: number): string => {
    const s = String(v);
    if (s.length <= 3) return s;
    return `${s.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',')},${s.slice(-3)}`;
  };
  const amount = (): string => {
    const r = random();
    if (r < 0.015) return '';
    const v = (1 + int(500)) * 250;
    if (r < 0.5) return String(v);
    if (r < 0.65) return grouped(v);
    if (r < 0.75) return `₹${grouped(v)}`;
    if (r < 0.82) return `Rs ${v}/-`;
    if (r < 0.9) return `${v}.00`;
    return `INR ${v}`;
  };
  const two = (n: number): string => (n < 10 ? `0${n}` : String(n));
  const dueDate = (): string => {
    const r = random();
    if (r < 0.015) return '';
    const [y, m, d] = [2025 + int(3), 1 + int(12), 1 + int(28)];
    if (r < 0.45) return `${y}-${two(m)}-${two(d)}`;
    if (r < 0.7) return `${two(d)}/${two(m)}/${y}`;
    if (r < 0.8) return `${two(m)}/${two(d)}/${y}`;
    if (r < 0.92) return `${two(d)}-${MONTHS[m - 1]}-${y}`;
    return `${d} ${MONTHS[m - 1]} ${y}`;
  };
  const language = (): string => (chance(0.015) ? '' : pick(LANGUAGES));
  const email = (person: string, i: number): string => {
    if (chance(0.4)) return '';
    const local = /^[\x20-\x7e]+$/.test(person)
      ? person
          .trim()
          .toLowerCase()
          .replace(/[^a-z]+/g, '.')
      : 'customer';
    return `${local.replace(/^\.+|\.+$/g, '') || 'customer'}${i % 997}@${pick(DOMAINS)}`;
  };
  const notes = (): string => {
    const r = random();
    if (r < 0.7) return '';
    if (r < 0.96) return pick(NOTES);
    return `${pick(NOTES)}\n${pick(NOTES)}`; // a line break inside a quoted cell
  };
  const field = (value: string): string => {
    if (value === '') return '';
    if (special.test(value)) return `"${value.replace(/"/g, '""')}"`;
    if ((value[0] === ' ' || value[value.length - 1] === ' ') && chance(0.5)) return `"${value}"`;
    return value;
  };

  let index = 0;
  let row = 1 + (options.title?.length ?? 0);
  const headerCells: string[] = [...GENERATED_HEADER];
  if (options.strayQuoteHeader) headerCells[GENERATED_HEADER.indexOf('City')] = '"City" (town)';
  return {
    header: headerCells.join(delimiter),
    newline,
    /** The next record (text without line end, preceded by any blank lines) and its truth. */
    next(): { text: string; truth: RowTruth } {
      let text = '';
      row++;
      if (chance(0.001)) {
        text += newline; // a blank line: a spreadsheet row that is not a data row
        row++;
      }
      const i = index++;
      const id = `C${String(200000 + i)}`;
      const person = name();
      const p = phone(row);
      const cells = [
        id,
        person,
        p.raw,
        pick(CITIES),
        amount(),
        dueDate(),
        language(),
        email(person, i),
        notes(),
      ];
      const ragged = chance(0.0005);
      if (ragged) cells.pop();
      const empty = VARIABLE_COLUMNS.filter((c) => (cells[GENERATED_HEADER.indexOf(c)] ?? '').trim() === '');
      text += cells.map(field).join(delimiter);
      return {
        text,
        truth: {
          row,
          id,
          phone: p.raw,
          kind: p.kind,
          e164: p.e164,
          phoneIssue: p.issue,
          landline: p.landline,
          ragged,
          empty,
          formula: cells.some((c, k) => k !== PHONE_INDEX && isFormula(c)),
          repeats: p.repeats,
        },
      };
    },
  };
}

// The project's own generator of messy contact CSVs (tests, benchmarks, verify:phones). Pure and
// deterministic: the same options give the same bytes. Every row comes with its truth (what the
// generator meant: the number, how it was damaged, which cells it left empty), so tests compare the
// engine with the generator's intent instead of with magic numbers. Node CLI: scripts/gen-contacts.ts.
//
// Columns: Customer ID, Name, Mobile Number, City, Loan Amount, Due Date, Language, Email, Notes.
// The mess (approximate shares of rows):
//   phones  Indian mobiles in a dozen spellings (+91 98xxx xxxxx, 0091…, 091…, 91-…, spaces, dashes,
//           padding), Excel damage (9.87654E+09, 9.19876E+11 → phone_scientific_notation,
//           919876543210.0 → phone_excel_decimal, leading zero lost from 0-prefixed landlines),
//           US numbers with +1 (valid), US numbers without it (under IN some read as Indian
//           landlines, some are invalid), Indian landlines, junk (short, letters, zeros, N/A),
//           empty or blank cells, ~5% repeats of an earlier number (same bytes or re-spelt)
//   names   titles, odd spacing and case, "Last, First" (quoted), Devanagari and accented names
//   other   quoted fields with the delimiter, doubled quotes and embedded newlines (Notes), Indian
//           digit grouping, currency signs, five date formats, ~1.5% empty prompt-variable cells
//           (Name / Loan Amount / Due Date / Language), rare blank lines and rows missing a cell
//   bytes   UTF-8 (optionally with a BOM), UTF-16LE, Windows-1252 or a legacy encoding (Big5, GBK,
//           Shift_JIS, EUC-KR, Windows-1251, ISO-8859-2: names in its script); LF or CRLF; , ; tab
//           or |; optionally title lines above the header, a stray quote in it, lone LFs in CRLF
import { seededRandom } from './seededRandom.ts';

export const GENERATED_HEADER = [
  'Customer ID',
  'Name',
  'Mobile Number',
  'City',
  'Loan Amount',
  'Due Date',
  'Language',
  'Email',
  'Notes',
] as const;

const PHONE_INDEX = 2;
/** The prompt-variable columns the generator sometimes leaves empty. */
export const VARIABLE_COLUMNS = ['Name', 'Loan Amount', 'Due Date', 'Language'] as const;

/** Legacy encodings of files from other tools (names are then written in the encoding's script). */
export const LEGACY_ENCODINGS = [
  'big5',
  'gb18030',
  'shift_jis',
  'euc-kr',
  'windows-1251',
  'iso-8859-2',
] as const;
export type LegacyEncoding = (typeof LEGACY_ENCODINGS)[number];
export type GeneratedEncoding = 'utf-8' | 'utf-16le' | 'windows-1252' | LegacyEncoding;
export type GeneratedDelimiter = ',' | ';' | '\t' | '|';

export interface GeneratorOptions {
  rows: number;
  seed: number | string;
  /** UTF-8 byte-order mark (Excel's "CSV UTF-8"); UTF-16LE always has one. */
  bom?: boolean;
  crlf?: boolean;
  encoding?: GeneratedEncoding;
  delimiter?: GeneratedDelimiter;
  /**
   * Lines written as they are above the header (a report title, notes; commas included): the
   * header is then on row title.length + 1, and data rows number from there.
   */
  title?: readonly string[];
  /** The City header written with a stray quote, `"City" (town)`, as some exports do (header name kept as written). */
  strayQuoteHeader?: boolean;
  /** CRLF files: every 50th record, and the last, ends with a lone LF (files joined from several tools). */
  loneLf?: boolean;
}

export type PhoneKind =
  | 'in_mobile'
  | 'in_landline'
  /** A 0-prefixed landline whose zero Excel dropped (still the same number). */
  | 'in_landline_zero_lost'
  | 'us_international'
  /** A US number without +1 that, read under IN, is a valid Indian landline. */
  | 'us_read_as_in_landline'
  /** A US number without +1 that is no number at all under IN. */
  | 'us_invalid_in_in'
  | 'excel_scientific'
  | 'excel_decimal'
  | 'junk'
  /** Digits with a bidi control among them (issue 22): "+91\u202E0123456789" shows other digits. */
  | 'bidi'
  | 'empty';

export type PhoneIssue =
  | 'phone_missing'
  | 'phone_invalid'
  | 'phone_scientific_notation'
  | 'phone_excel_decimal'
  | 'phone_bidi_control';

/** What the generator meant for one data row. */
export interface RowTruth {
  /** Spreadsheet row (header = 1; blank lines count, line breaks inside quotes do not). */
  row: number;
  id: string;
  /** The phone cell's text (before CSV quoting). */
  phone: string;
  kind: PhoneKind;
  /** The number the cell means under default country IN, when it is a valid one. */
  e164: string | null;
  phoneIssue: PhoneIssue | null;
  /** Valid only as a fixed line (no mobile reading). */
  landline: boolean;
  /** The row has one cell fewer than the header (its Notes cell is missing). */
  ragged: boolean;
  /** Variable columns (VARIABLE_COLUMNS) left empty. */
  empty: string[];
  /** A cell other than the phone would run as a formula in a spreadsheet (issue 22). */
  formula: boolean;
  /** Spreadsheet row of the earlier row whose number this one reuses on purpose, or 0. */
  repeats: number;
}

// ---- vocabularies (made up for this generator) ----
const GIVEN = [
  'Aarav',
  'Ishita',
  'Rohan',
  'Meera',
  'Kabir',
  'Tanvi',
  'Farhan',
  'Nandini',
  'Vivek',
  'Shreya',
  'Aditya',
  'Radhika',
  'Siddharth',
  'Bhavna',
  'Naveen',
  'Gayatri',
  'Harish',
  'Zoya',
  'Pranav',
  'Leela',
  'Ayesha',
  'Baldev',
  'Thomas',
  'Grace',
  'Mohan',
  'Usha',
  'Kiran',
  'Rekha',
  'Dev',
  'Alice',
  'Peter',
];
const FAMILY = [
  'Agarwal',
  'Banerjee',
  'Chatterjee',
  'Desai',
  'Ghosh',
  'Hegde',
  'Jain',
  'Kapoor',
  'Mehta',
  'Mishra',
  'Pandey',
  'Qureshi',
  'Saxena',
  'Thakur',
  'Trivedi',
  'Varghese',
  "O'Neil",
  'Bose',
  'Sethi',
  'Naidu',
  'Rathore',
  'Sinha',
  'Ansari',
  'Walker',
  'Taylor',
  'Lopez',
];
const DEVANAGARI = [
  'आरव मेहता',
  'इशिता जैन',
  'रोहन देसाई',
  'मीरा घोष',
  'कबीर सिन्हा',
  'तन्वी पांडे',
  'नंदिनी ठाकुर',
  'विवेक सक्सेना',
  'गायत्री हेगड़े',
  'उषा बोस',
];
const ACCENTS = [
  'Inés Muñoz',
  'Frédéric Hébert',
  'Björn Åström',
  'Dvořák Jiří',
  'Małgorzata Kępa',
  'João Gonçalves',
  'Gülşen Öztürk',
  'Anaïs Brûlé',
  'Søren Kjær',
  'Müller Jörg',
];
/** Names in the script of each legacy encoding (made up), written instead of Devanagari and accented ones. */
const SCRIPT_NAMES: Record<LegacyEncoding, readonly string[]> = {
  big5: ['陳大文', '李美玲', '王志明', '張家豪', '林淑芬', '黃俊傑', '吳佩君', '劉建宏', '蔡宜蓁', '楊宗翰'],
  gb18030: [
    '陈大文',
    '李美玲',
    '王志明',
    '张家豪',
    '林淑芬',
    '黄俊杰',
    '吴佩君',
    '刘建宏',
    '蔡宜蓁',
    '杨宗翰',
  ],
  shift_jis: [
    'やまだ たろう',
    'すずき はなこ',
    'さとう けん',
    'たかはし さくら',
    '田中 ひろし',
    '伊藤 めぐみ',
    '渡辺 しょうた',
    '中村 あおい',
    '小林 だいすけ',
    '加藤 ゆい',
  ],
  'euc-kr': [
    '김민준',
    '이서연',
    '박지훈',
    '최수아',
    '정하준',
    '강지민',
    '조예린',
    '윤도현',
    '장서윤',
    '임재원',
  ],
  'windows-1251': [
    'Иван Петров',
    'Ольга Смирнова',
    'Сергей Иванов',
    'Анна Кузнецова',
    'Дмитрий Попов',
    'Елена Соколова',
    'Алексей Морозов',
    'Мария Волкова',
    'Никита Лебедев',
    'Татьяна Козлова',
  ],
  'iso-8859-2': [
    'Łukasz Wójcik',
    'Małgorzata Kępa',
    'Paweł Żółtowski',
    'Zofia Dąbrowska',
    'Jiří Dvořák',
    'Ágnes Kovács',
    'Štefan Horák',
    'Bożena Śliwa',
    'Tomáš Černý',
    'Ewa Łącka',
  ],
};
const TITLES = ['Mr.', 'Mrs.', 'Ms.', 'Dr.', 'Shri', 'Smt.', 'Prof.', 'mr', 'DR.', 'Miss'];
const CITIES = [
  'Mumbai',
  'Pune',
  'Nashik',
  'Delhi',
  'Gurugram',
  'Noida',
  'Bengaluru',
  'Mysuru',
  'Chennai',
  'Madurai',
  'Hyderabad',
  'Vizag',
  'Kolkata',
  'Jaipur',
  'Udaipur',
  'Lucknow',
  'Kanpur',
  'Indore',
  'Ahmedabad',
  'Surat',
  'Kochi',
  'Goa',
  'पुणे',
  'जयपुर',
  'Zürich',
  'São Paulo',
  'Chicago',
  'Seattle',
  'Pune, MH',
  'Salt Lake, Kolkata',
  ' bengaluru',
  'NOIDA ',
];
const LANGUAGES = [
  'English',
  'Hindi',
  'Marathi',
  'Tamil',
  'Telugu',
  'Kannada',
  'Bengali',
  'Gujarati',
  'Punjabi',
  'Odia',
  'en',
  'hi',
  'HINDI',
  'हिंदी',
  ' English',
  'Français',
];
const NOTES = [
  'call after 7 pm',
  'prefers SMS',
  'will pay on the 5th',
  'number may be wrong',
  'asked us to "call tomorrow"',
  'do not call on Sundays',
  'brother answered, said "he is out"',
  'address: 4th floor, Tower B, Whitefield',
  'paid half',
  'किस्त बाकी',
  'senior citizen; be patient',
  '3rd reminder, escalate',
  '=HYPERLINK("x")',
  '-nothing-',
];
/** Names a spreadsheet would run as formulas (the tab one is a live "=2+2" once trimmed). */
const FORMULA_NAMES = ['=HYPERLINK("http://example.invalid/pay","Pay")', '@SUM(1+1)', '\t=2+2'];
/** Phones with bidi controls: right-to-left override, mark, isolates, Arabic letter mark. */
const BIDI_PHONES = [
  '+91\u202E0123456789',
  '98765\u200F43210',
  '\u2066+91 98765 43210\u2069',
  '+91 98765\u061C43210',
];
/** The generator's own reading of the formula rule (README): trimmed text starts with = + - @, not a plain number. */
const isFormula = (cell: string): boolean =>
  !/^[\s=+\-@]*$/.test(cell) && /^[=+\-@]/.test(cell.trim()) && !/^[+-]?\d+(?:[.,]\d+)*$/.test(cell.trim());
const US_VALID_IN = ['212', '415', '646', '617', '702', '718', '512', '213'];
/** Under default country IN these read as Indian landlines (checked by the generator's tests). */
const US_AS_IN_LANDLINE = ['206', '404'];
/** Under default country IN these are no number at all. */
const US_INVALID_IN_IN = ['312', '305'];
/** STD codes whose 8-digit locals starting 2-7 are valid fixed lines. */
const STD = ['11', '20', '22', '33', '40', '44'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DOMAINS = ['gmail.com', 'outlook.com', 'example.in', 'yahoo.co.in'];

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

const isLegacy = (encoding: GeneratedEncoding | undefined): encoding is LegacyEncoding =>
  (LEGACY_ENCODINGS as readonly string[]).includes(encoding ?? '');

/** Character → bytes of a legacy encoding, built by decoding every one- and two-byte sequence. */
const legacyTables = new Map<LegacyEncoding, Map<number, number[]>>();
function legacyTable(encoding: LegacyEncoding): Map<number, number[]> {
  let table = legacyTables.get(encoding);
  if (table) return table;
  table = new Map();
  const decoder = new TextDecoder(encoding);
  const add = (text: string, bytes: number[]): boolean => {
    const c = text.codePointAt(0) as number;
    if (text.length !== 1 || c === 0xfffd) return false;
    if (!table?.has(c)) table?.set(c, bytes);
    return true;
  };
  for (let lead = 0x80; lead <= 0xff; lead++) {
    if (add(decoder.decode(Uint8Array.of(lead)), [lead])) continue;
    for (let trail = 0x40; trail <= 0xfe; trail++)
      add(decoder.decode(Uint8Array.of(lead, trail)), [lead, trail]);
  }
  legacyTables.set(encoding, table);
  return table;
}

/** Text → bytes in the file's encoding (Windows-1252 and legacy encodings write "?" for what they cannot hold). */
export function encodeText(text: string, encoding: GeneratedEncoding): Uint8Array {
  if (encoding === 'utf-8') return new TextEncoder().encode(text);
  if (isLegacy(encoding)) {
    const table = legacyTable(encoding);
    const out: number[] = [];
    for (const ch of text) {
      const c = ch.codePointAt(0) as number;
      if (c < 0x80) out.push(c);
      else out.push(...(table.get(c) ?? [0x3f]));
    }
    return Uint8Array.from(out);
  }
  if (encoding === 'utf-16le') {
    const out = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      out[i * 2] = c & 0xff;
      out[i * 2 + 1] = c >>> 8;
    }
    return out;
  }
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[i] = c < 0x80 || (c >= 0xa0 && c <= 0xff) ? c : (CP1252[c] ?? 0x3f);
  }
  return out;
}

/** Windows-1252's 0x80-0x9F characters. */
const CP1252: Record<number, number> = {
  0x20ac: 0x80,
  0x201a: 0x82,
  0x192: 0x83,
  0x201e: 0x84,
  0x2026: 0x85,
  0x2020: 0x86,
  0x2021: 0x87,
  0x2c6: 0x88,
  0x2030: 0x89,
  0x160: 0x8a,
  0x2039: 0x8b,
  0x152: 0x8c,
  0x17d: 0x8e,
  0x2018: 0x91,
  0x2019: 0x92,
  0x201c: 0x93,
  0x201d: 0x94,
  0x2022: 0x95,
  0x2013: 0x96,
  0x2014: 0x97,
  0x2dc: 0x98,
  0x2122: 0x99,
  0x161: 0x9a,
  0x203a: 0x9b,
  0x153: 0x9c,
  0x17e: 0x9e,
  0x178: 0x9f,
};

/**
 * The file as byte chunks of about `chunkChars` characters each; `onRow` receives each row's truth.
 * Streams: a million rows never sit in memory at once.
 */
export function* generateContactChunks(
  options: GeneratorOptions,
  onRow?: (truth: RowTruth) => void,
  chunkChars = 1 << 20,
): Generator<Uint8Array> {
  const encoding = options.encoding ?? 'utf-8';
  const source = createRowSource(options);
  const bom = encoding === 'utf-16le' || (encoding === 'utf-8' && options.bom) ? '\ufeff' : '';
  const title = (options.title ?? []).map((line) => line + source.newline).join('');
  let text = bom + title + source.header + source.newline;
  for (let i = 0; i < options.rows; i++) {
    const { text: record, truth } = source.next();
    const loneLf = options.loneLf && (i % 50 === 49 || i === options.rows - 1);
    text += record + (loneLf ? '\n' : source.newline);
    onRow?.(truth);
    if (text.length >= chunkChars) {
      yield encodeText(text, encoding);
      text = '';
    }
  }
  if (text) yield encodeText(text, encoding);
}

/** A whole generated file in memory with its truth (tests; use the chunks for big files). */
export function generateContacts(options: GeneratorOptions): { bytes: Uint8Array; truth: RowTruth[] } {
  const truth: RowTruth[] = [];
  const chunks = [...generateContactChunks(options, (t) => truth.push(t))];
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return { bytes, truth };
}

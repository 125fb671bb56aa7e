// Cell values as the text an operator sees in Excel, for the contacts engine:
//   - numbers keep their digits: 919876543210 stays 919876543210 (never 9.19876543210E+11), 42.0 is
//     42, 0.1 + 0.2 is 0.3 (Excel shows 15 significant digits; so do we);
//   - numbers formatted with zeros only ("00000") are padded as Excel shows them (a postcode 01234);
//   - numbers formatted as dates become YYYY-MM-DD (YYYY-MM-DD HH:MM:SS when the format shows a
//     time too, HH:MM:SS for times alone), in the workbook's 1900 or 1904 date system;
//   - XML escapes (&amp; &#10; …) and OOXML's _xHHHH_ escapes are decoded.

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Text of an XML text node or attribute value, decoded. */
export function xmlText(raw: string): string {
  let text = raw;
  if (text.includes('&'))
    text = text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_, name: string) =>
      name.charCodeAt(0) === 35
        ? String.fromCodePoint(
            name.charCodeAt(1) === 120 ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10),
          )
        : (ENTITIES[name] as string),
    );
  // OOXML escapes characters XML cannot carry as _xHHHH_ (a literal "_x" is written _x005F_x…).
  if (text.includes('_x'))
    text = text.replace(/_x([0-9a-fA-F]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return text;
}

/** Up to 15 digits, no leading zero (but "0.5"), no trailing zero after a point. */
const SHORT_NUMBER = /^-?(?:0|[1-9]\d{0,14})(?:\.\d{0,14}[1-9])?$/;

/** Digits of a number without exponent: BigInt for integers, 15 significant digits otherwise. */
export function numberText(raw: string): string {
  // Most numbers are written as plain digits, or a short decimal: nothing to do (a million times).
  if (raw.length <= 16 && SHORT_NUMBER.test(raw)) return raw;
  const value = Number(raw);
  if (Number.isSafeInteger(value)) return String(value);
  if (!Number.isFinite(value)) return raw.trim();
  if (Number.isInteger(value)) return BigInt(value).toString();
  const rounded = Number(value.toPrecision(15));
  const text = String(rounded);
  return text.includes('e') ? plainDecimal(rounded) : text;
}

/** 1.5e-7 → "0.00000015" (String() uses an exponent below 1e-6). */
function plainDecimal(value: number): string {
  const [mantissa = '', exponent = '0'] = value.toExponential().split('e');
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const shift = Number(exponent);
  let text: string;
  if (shift < 0) text = `0.${'0'.repeat(-shift - 1)}${digits}`;
  else text = digits.length > shift + 1 ? `${digits.slice(0, shift + 1)}.${digits.slice(shift + 1)}` : digits;
  return (negative ? '-' : '') + text;
}

export type DateKind = 'date' | 'datetime' | 'time';

// Built-in number formats that show dates or times (ECMA-376 18.8.30; 27–36 and 50–58 are the
// East Asian date formats).
const BUILT_IN: Record<number, DateKind> = {
  14: 'date',
  15: 'date',
  16: 'date',
  17: 'date',
  18: 'time',
  19: 'time',
  20: 'time',
  21: 'time',
  22: 'datetime',
  45: 'time',
  47: 'time',
};
for (const id of [27, 28, 29, 30, 31, 34, 35, 36, 50, 51, 52, 53, 54, 57, 58]) BUILT_IN[id] = 'date';
for (const id of [32, 33, 55, 56]) BUILT_IN[id] = 'time';

/** Whether a number format shows a date or time: y, d (or m beside them) outside quotes and brackets. */
export function formatKind(code: string): DateKind | null {
  // Drop quoted text, escaped characters, [Red]/[$-409] sections; keep [h]/[mm]/[ss] elapsed times.
  const bare = (code.split(';')[0] ?? '')
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/_.|\*./g, '')
    .replace(/\[(?![hms]+\])[^\]]*\]/gi, '')
    .toLowerCase();
  const hasDate = /[yd]/.test(bare) || (/m/.test(bare) && !/[hs]/.test(bare) && !/[0#?]/.test(bare));
  const hasTime = /[hs]/.test(bare) || /am\/pm|a\/p/.test(bare);
  if (/[0#?]/.test(bare) && !hasTime && !/[yd]/.test(bare)) return null; // a plain number format
  if (hasDate) return hasTime ? 'datetime' : 'date';
  return hasTime ? 'time' : null;
}

/** A format of zeros only ("00000", Excel's "Special" for codes): numbers shown padded to that width. */
export function zeroWidth(code: string): number {
  const bare = (code.split(';')[0] ?? '').replace(/\[[^\]]*\]/g, '');
  return /^0+$/.test(bare) ? bare.length : 0;
}

/** A number padded as a zeros-only format shows it (integers from 0 only). */
export const padded = (text: string, width: number): string =>
  /^\d+$/.test(text) ? text.padStart(width, '0') : text;

/**
 * An elapsed-time format ([h]:mm:ss, [mm]:ss, [h]:mm, [ss]): the bracketed unit counts every whole
 * day too (255:10:10, not 15:10:10). `width` is the bracket's digits (at least that many shown).
 */
export interface ElapsedFormat {
  elapsed: 'h' | 'm' | 's';
  width: number;
  minutes: boolean;
  seconds: boolean;
}

export function elapsedFormat(code: string): ElapsedFormat | null {
  const bare = (code.split(';')[0] ?? '')
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .toLowerCase();
  const m = /\[(h+|m+|s+)\]/.exec(bare);
  if (!m) return null;
  const unit = (m[1] ?? 'h')[0] as ElapsedFormat['elapsed'];
  const after = bare.slice(m.index + m[0].length);
  return {
    elapsed: unit,
    width: (m[1] ?? '').length,
    minutes: unit === 'h' && after.includes('m'),
    seconds: unit !== 's' && after.includes('s'),
  };
}

/** Built-in format 46 is [h]:mm:ss. */
const BUILT_IN_ELAPSED: Record<number, ElapsedFormat> = {
  46: { elapsed: 'h', width: 1, minutes: true, seconds: true },
};

export function builtInKind(id: number): DateKind | ElapsedFormat | null {
  return BUILT_IN[id] ?? BUILT_IN_ELAPSED[id] ?? null;
}

/** A duration serial (days) as an elapsed-time format shows it, rounded to the second. */
export function elapsedText(raw: string, format: ElapsedFormat): string {
  const serial = Number(raw);
  if (!Number.isFinite(serial)) return numberText(raw);
  const total = Math.round(Math.abs(serial) * 86_400);
  const sign = serial < 0 && total > 0 ? '-' : '';
  const [s, m] = [total % 60, Math.floor(total / 60) % 60];
  let text: string;
  if (format.elapsed === 's') text = pad(total, format.width);
  else if (format.elapsed === 'm') text = pad(Math.floor(total / 60), format.width);
  else {
    text = pad(Math.floor(total / 3600), format.width);
    if (format.minutes) text += `:${pad(m)}`;
  }
  if (format.seconds) text += `:${pad(s)}`;
  return sign + text;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
const DAY_MS = 86_400_000;
// Day 0 of each system as a UTC timestamp: 1899-12-31 (1900) and 1904-01-01.
const EPOCH_1900 = Date.UTC(1899, 11, 31);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/**
 * An Excel date serial as text. The 1900 system counts a 29 February 1900 that never was
 * (Lotus's bug, kept by Excel): serials from 61 on are one day ahead of the calendar.
 */
const dayCache = new Map<number, string>();

/** YYYY-MM-DD of a whole day number (cached: a sheet's dates repeat). */
function dayText(days: number, date1904: boolean): string {
  const key = date1904 ? -days - 1 : days;
  let text = dayCache.get(key);
  if (text === undefined) {
    if (!date1904 && days === 60) text = '1900-02-29';
    else {
      const shifted = !date1904 && days > 60 ? days - 1 : days;
      const d = new Date((date1904 ? EPOCH_1904 : EPOCH_1900) + shifted * DAY_MS);
      text = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
    }
    if (dayCache.size > 100_000) dayCache.clear();
    dayCache.set(key, text);
  }
  return text;
}

export function serialText(raw: string, kind: DateKind, date1904: boolean): string {
  const serial = Number(raw);
  if (!Number.isFinite(serial) || serial < 0) return numberText(raw);
  let days = Math.floor(serial);
  // Round to the second, as Excel shows it (a fraction of 0.9999999 is the next day's midnight).
  let seconds = Math.round((serial - days) * 86_400);
  if (seconds >= 86_400) {
    days += 1;
    seconds -= 86_400;
  }
  if (kind === 'date') return dayText(days, date1904);
  const time = `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`;
  return kind === 'time' ? time : `${dayText(days, date1904)} ${time}`;
}

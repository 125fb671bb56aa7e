// Names of the encodings for people (notes, the import form): no detector here, so the UI can
// import it without the detector.
import type { Encoding } from './types.ts';

/** How people know the encodings (notes, the import form). */
export const ENCODING_NAMES: Record<Encoding, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16 LE',
  'utf-16be': 'UTF-16 BE',
  'windows-1252': 'Windows-1252 (Western)',
  big5: 'Big5 (Traditional Chinese)',
  gb18030: 'GBK / GB18030 (Simplified Chinese)',
  shift_jis: 'Shift_JIS (Japanese)',
  'euc-jp': 'EUC-JP (Japanese)',
  'iso-2022-jp': 'ISO-2022-JP (Japanese)',
  'euc-kr': 'EUC-KR (Korean)',
  'windows-1250': 'Windows-1250 (Central European)',
  'windows-1251': 'Windows-1251 (Cyrillic)',
  'windows-1253': 'Windows-1253 (Greek)',
  'windows-1254': 'Windows-1254 (Turkish)',
  'windows-1255': 'Windows-1255 (Hebrew)',
  'windows-1256': 'Windows-1256 (Arabic)',
  'windows-1257': 'Windows-1257 (Baltic)',
  'windows-1258': 'Windows-1258 (Vietnamese)',
  'windows-874': 'Windows-874 (Thai)',
  'iso-8859-2': 'ISO-8859-2 (Central European)',
  'iso-8859-5': 'ISO-8859-5 (Cyrillic)',
  'iso-8859-6': 'ISO-8859-6 (Arabic)',
  'iso-8859-7': 'ISO-8859-7 (Greek)',
  'iso-8859-8': 'ISO-8859-8 (Hebrew)',
  'koi8-r': 'KOI8-R (Russian)',
};

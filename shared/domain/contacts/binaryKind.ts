// Files people pick by mistake instead of a CSV export, told apart by their first bytes. An OLE
// compound file (D0 CF 11 E0) is an old binary Office file (.xls) or, just as often, an .xlsx
// protected by a password: Excel encrypts the whole ZIP package into an OLE file whose directory
// holds the streams "EncryptionInfo" and "EncryptedPackage" (MS-OFFCRYPTO). Their names are
// UTF-16LE in the directory, which Excel writes near the start of the file.

const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const SIGNATURES: Array<[number[], string]> = [
  [[0x50, 0x4b, 0x03, 0x04], 'an Excel workbook or ZIP archive (export it as CSV)'],
  [[0x25, 0x50, 0x44, 0x46], 'a PDF document'],
  [[0x1f, 0x8b], 'a gzip archive'],
];

export const PASSWORD_PROTECTED =
  'an Excel workbook protected by a password: open it in Excel, remove the password (File › Info › Protect Workbook › Encrypt with Password, clear it) and save, or use File › Save As › CSV UTF-8, then import that file';
export const OLD_BINARY_OFFICE =
  'an old Excel (.xls) workbook or another binary Office file (open it in Excel and use File › Save As › CSV UTF-8 or Excel Workbook (.xlsx))';
const UNKNOWN_OLE =
  'an old Excel (.xls) workbook or a workbook protected by a password (open it in Excel, remove any password, then use File › Save As › CSV UTF-8)';

const utf16 = (text: string): Uint8Array => {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) out[i * 2] = text.charCodeAt(i);
  return out;
};
const ENCRYPTION_STREAMS = [utf16('EncryptedPackage'), utf16('EncryptionInfo')];
const WORKBOOK_STREAMS = [
  utf16('Workbook'),
  utf16('Book'),
  utf16('WordDocument'),
  utf16('PowerPoint Document'),
];

function contains(bytes: Uint8Array, needle: Uint8Array): boolean {
  const first = needle[0] as number;
  for (
    let at = bytes.indexOf(first);
    at !== -1 && at + needle.length <= bytes.length;
    at = bytes.indexOf(first, at + 1)
  ) {
    let i = 1;
    while (i < needle.length && bytes[at + i] === needle[i]) i++;
    if (i === needle.length) return true;
  }
  return false;
}

/** What an OLE compound file is, from the stream names its directory shows in `bytes`. */
function oleKind(bytes: Uint8Array): string {
  if (ENCRYPTION_STREAMS.some((name) => contains(bytes, name))) return PASSWORD_PROTECTED;
  if (WORKBOOK_STREAMS.some((name) => contains(bytes, name))) return OLD_BINARY_OFFICE;
  return UNKNOWN_OLE;
}

/** What the file looks like when it is not text, or null. `bytes`: the start of the file. */
export function binaryKind(bytes: Uint8Array): string | null {
  if (OLE.every((b, i) => bytes[i] === b)) return oleKind(bytes);
  for (const [sig, what] of SIGNATURES) if (sig.every((b, i) => bytes[i] === b)) return what;
  return null;
}

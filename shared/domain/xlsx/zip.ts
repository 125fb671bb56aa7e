// The ZIP container of an .xlsx file, read by random access: the central directory at the end says
// where each part is, so a part is inflated on its own without reading the archive in order (a
// workbook's sharedStrings.xml often comes after the sheets). Compressed data is read in slices and
// inflated with fflate's streaming Inflate (pure JS: the same code runs in Node and in a Web Worker).
// ZIP64 sizes and offsets are understood; encryption and other methods than store/deflate are not
// (Excel writes neither).
import { Inflate } from 'fflate';
import { ContactsError } from '../contacts/errors.ts';

/** A file read by offset: a file handle in Node, a Blob in the browser. */
export interface RandomAccess {
  readonly size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_COMMENT = 0xffff;

const damaged = (why: string): ContactsError =>
  new ContactsError('bad_workbook', `not a readable Excel workbook: ${why}`);

const u16 = (b: Uint8Array, at: number): number => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const u32 = (b: Uint8Array, at: number): number => (u16(b, at) + u16(b, at + 2) * 0x10000) >>> 0;
const u64 = (b: Uint8Array, at: number): number => u32(b, at) + u32(b, at + 4) * 0x1_0000_0000;

const names = new TextDecoder('utf-8');

/** Reads the central directory: part name → entry. */
export async function openZip(file: RandomAccess): Promise<Map<string, ZipEntry>> {
  const tailLength = Math.min(file.size, 22 + MAX_COMMENT);
  const tailStart = file.size - tailLength;
  const tail = await file.read(tailStart, tailLength);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (u32(tail, i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw damaged('the ZIP directory is missing (the file is cut short or not a workbook)');
  let count = u16(tail, eocd + 10);
  let dirSize = u32(tail, eocd + 12);
  let dirOffset = u32(tail, eocd + 16);
  if (eocd >= 20 && u32(tail, eocd - 20) === EOCD64_LOCATOR) {
    const at = u64(tail, eocd - 20 + 8);
    const record = await file.read(at, 56);
    if (u32(record, 0) !== EOCD64) throw damaged('the ZIP64 directory is damaged');
    count = u64(record, 32);
    dirSize = u64(record, 40);
    dirOffset = u64(record, 48);
  }
  if (dirOffset + dirSize > file.size) throw damaged('the ZIP directory points past the end of the file');
  const dir = await file.read(dirOffset, dirSize);
  const entries = new Map<string, ZipEntry>();
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > dir.length || u32(dir, at) !== CENTRAL) throw damaged('the ZIP directory is damaged');
    const flags = u16(dir, at + 8);
    const method = u16(dir, at + 10);
    let compressedSize = u32(dir, at + 20);
    let size = u32(dir, at + 24);
    const nameLength = u16(dir, at + 28);
    const extraLength = u16(dir, at + 30);
    const commentLength = u16(dir, at + 32);
    let localOffset = u32(dir, at + 42);
    const name = names.decode(dir.subarray(at + 46, at + 46 + nameLength));
    // ZIP64: the sizes and offset that overflowed 32 bits are in extra field 0x0001, in this order.
    let extra = at + 46 + nameLength;
    const extraEnd = extra + extraLength;
    while (extra + 4 <= extraEnd) {
      const id = u16(dir, extra);
      const length = u16(dir, extra + 2);
      if (id === 1) {
        let p = extra + 4;
        if (size === 0xffffffff) {
          size = u64(dir, p);
          p += 8;
        }
        if (compressedSize === 0xffffffff) {
          compressedSize = u64(dir, p);
          p += 8;
        }
        if (localOffset === 0xffffffff) localOffset = u64(dir, p);
      }
      extra += 4 + length;
    }
    if (flags & 1) throw damaged(`"${name}" is encrypted (remove the password in Excel first)`);
    entries.set(name, { name, method, compressedSize, size, localOffset });
    at = extraEnd + commentLength;
  }
  return entries;
}

/** Where the data of an entry starts (after its local header, whose lengths may differ from the directory's). */
async function dataStart(file: RandomAccess, entry: ZipEntry): Promise<number> {
  const header = await file.read(entry.localOffset, 30);
  if (u32(header, 0) !== LOCAL) throw damaged(`the header of "${entry.name}" is damaged`);
  return entry.localOffset + 30 + u16(header, 26) + u16(header, 28);
}

export interface EntryProgress {
  /** Compressed bytes read so far, and in all. */
  (read: number, total: number): void;
}

/**
 * The uncompressed bytes of an entry, in chunks, reading `sliceBytes` of compressed data at a time.
 * Stops reading as soon as the consumer stops asking.
 */
export async function* entryChunks(
  file: RandomAccess,
  entry: ZipEntry,
  options: { sliceBytes?: number; onRead?: EntryProgress | undefined } = {},
): AsyncGenerator<Uint8Array> {
  if (entry.method !== 0 && entry.method !== 8)
    throw damaged(`"${entry.name}" uses an unsupported compression method (${entry.method})`);
  const slice = options.sliceBytes ?? 1 << 20;
  const start = await dataStart(file, entry);
  const end = start + entry.compressedSize;
  if (end > file.size) throw damaged(`"${entry.name}" runs past the end of the file (is it cut short?)`);
  let out: Uint8Array[] = [];
  let produced = 0;
  const inflater =
    entry.method === 8
      ? new Inflate((chunk) => {
          out.push(chunk);
          produced += chunk.length;
        })
      : null;
  for (let at = start; at < end; at += slice) {
    const bytes = await file.read(at, Math.min(slice, end - at));
    const last = at + slice >= end;
    if (inflater) {
      try {
        inflater.push(bytes, last);
      } catch {
        throw damaged(`"${entry.name}" is damaged (its compressed data cannot be read)`);
      }
    } else {
      out.push(bytes);
      produced += bytes.length;
    }
    options.onRead?.(Math.min(at + slice, end) - start, entry.compressedSize);
    const ready = out;
    out = [];
    for (const chunk of ready) yield chunk;
  }
  if (produced !== entry.size) throw damaged(`"${entry.name}" is damaged (its size does not match)`);
}

/** A whole (small) entry as text: workbook.xml, the relationships, styles.xml. */
export async function entryText(file: RandomAccess, entry: ZipEntry): Promise<string> {
  const decoder = new TextDecoder('utf-8');
  let text = '';
  for await (const chunk of entryChunks(file, entry)) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** A RandomAccess over bytes in memory (tests, small files). */
export const bytesAccess = (bytes: Uint8Array): RandomAccess => ({
  size: bytes.length,
  read: (offset, length) => Promise.resolve(bytes.subarray(offset, offset + length)),
});

// A minimal OLE compound file (MS-CFB, version 3, 512-byte sectors) for tests: the container of
// old .xls workbooks and of password-protected .xlsx files (Excel encrypts the ZIP package into
// the streams "EncryptionInfo" and "EncryptedPackage"). Streams are stored in regular sectors
// (no mini stream): readers that only look at the directory, as the contacts engine does, see
// the real layout.
const SECTOR = 512;
const FREE = 0xffffffff;
const END_OF_CHAIN = 0xfffffffe;
const FAT_SECTOR = 0xfffffffd;

export interface OleStream {
  name: string;
  bytes: Uint8Array;
}

/** An .xlsx protected by a password, as Excel writes it (contents made up: only the layout matters). */
export function encryptedWorkbookBytes(packageBytes = 6000): Uint8Array {
  const info = new Uint8Array(248);
  info.set([4, 0, 4, 0, 0x40, 0, 0, 0]); // agile encryption, version 4.4
  info.set(new TextEncoder().encode('<?xml version="1.0"?><encryption/>'), 8);
  const data = new Uint8Array(packageBytes);
  for (let i = 0; i < data.length; i++) data[i] = (i * 131 + 7) & 0xff;
  return oleBytes([
    { name: '\u0006DataSpaces', bytes: new Uint8Array(0) },
    { name: 'EncryptionInfo', bytes: info },
    { name: 'EncryptedPackage', bytes: data },
  ]);
}

/** Streams in the root storage; the directory comes after the data (as Excel lays it out too). */
export function oleBytes(streams: OleStream[]): Uint8Array {
  const sectorsOf = (n: number): number => Math.ceil(n / SECTOR);
  const dataSectors = streams.reduce((n, s) => n + sectorsOf(s.bytes.length), 0);
  const dirSectors = sectorsOf((streams.length + 1) * 128);
  const total = 1 + dataSectors + dirSectors; // FAT sector first
  if (total > SECTOR / 4) throw new Error('oleBytes: too many sectors for one FAT sector');
  const out = new Uint8Array(SECTOR * (1 + total));
  const view = new DataView(out.buffer);
  out.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  view.setUint16(0x18, 0x3e, true);
  view.setUint16(0x1a, 3, true);
  view.setUint16(0x1c, 0xfffe, true);
  view.setUint16(0x1e, 9, true);
  view.setUint16(0x20, 6, true);
  view.setUint32(0x2c, 1, true); // FAT sectors
  const dirStart = 1 + dataSectors;
  view.setUint32(0x30, dirStart, true);
  view.setUint32(0x38, 4096, true);
  view.setUint32(0x3c, END_OF_CHAIN, true);
  view.setUint32(0x44, END_OF_CHAIN, true);
  view.setUint32(0x4c, 0, true); // DIFAT[0]: the FAT is sector 0
  for (let i = 1; i < 109; i++) view.setUint32(0x4c + i * 4, FREE, true);
  const sectorAt = (sid: number): number => SECTOR * (sid + 1);
  const fat = new Uint32Array(SECTOR / 4).fill(FREE);
  fat[0] = FAT_SECTOR;
  const chain = (start: number, count: number): void => {
    for (let i = 0; i < count; i++) fat[start + i] = i === count - 1 ? END_OF_CHAIN : start + i + 1;
  };
  let next = 1;
  const starts: number[] = [];
  for (const s of streams) {
    const n = sectorsOf(s.bytes.length);
    starts.push(n === 0 ? END_OF_CHAIN : next);
    if (n > 0) {
      chain(next, n);
      out.set(s.bytes, sectorAt(next));
    }
    next += n;
  }
  chain(dirStart, dirSectors);
  fat.forEach((v, i) => view.setUint32(sectorAt(0) + i * 4, v, true));
  const entry = (
    index: number,
    name: string,
    type: number,
    start: number,
    size: number,
    child: number,
    right: number,
  ): void => {
    const at = sectorAt(dirStart) + index * 128;
    for (let i = 0; i < name.length; i++) view.setUint16(at + i * 2, name.charCodeAt(i), true);
    view.setUint16(at + 64, (name.length + 1) * 2, true);
    out[at + 66] = type;
    out[at + 67] = 1; // black
    view.setUint32(at + 68, FREE, true); // left sibling
    view.setUint32(at + 72, right, true);
    view.setUint32(at + 76, child, true);
    view.setUint32(at + 116, start, true);
    view.setUint32(at + 120, size, true);
  };
  entry(0, 'Root Entry', 5, END_OF_CHAIN, 0, streams.length > 0 ? 1 : FREE, FREE);
  streams.forEach((s, i) =>
    entry(
      i + 1,
      s.name,
      2,
      starts[i] as number,
      s.bytes.length,
      FREE,
      i + 2 <= streams.length ? i + 2 : FREE,
    ),
  );
  return out;
}

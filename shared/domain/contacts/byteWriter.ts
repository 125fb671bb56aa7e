// Writes CSV straight into UTF-8 bytes: the bulk path for the upload file. Building line strings
// and encoding them afterwards costs a rope flattening plus a second pass over ~45 MB per million
// rows; ASCII (most cells) is copied byte by byte here, the rest goes through encodeInto.
// Produces exactly the bytes of the UTF-8 encoding of csvCell()/csvLine() text (tested).

const encoder = new TextEncoder();
const QUOTE = /"/g;

export interface ByteWriter {
  /** An RFC 4180 field (quoted when it holds a quote, comma, CR or LF). */
  cell(value: string): void;
  /** Text known to need no quoting (E.164 numbers, separators). */
  plain(value: string): void;
  byte(value: number): void;
  /**
   * Writes `value` as it is and returns true when it is printable ASCII with no quote or comma,
   * no space at either end and, with `singleSpaces`, no two spaces in a row: a cell that trimming,
   * space-collapsing, bidi removal and quoting would all leave alone. Otherwise writes nothing and
   * returns false (the caller takes the full path).
   */
  simpleCell(value: string, singleSpaces: boolean): boolean;
  readonly length: number;
  /** The bytes written so far (a view: copy it if the writer is used again). */
  bytes(): Uint8Array;
}

export function createByteWriter(initialBytes = 1 << 16): ByteWriter {
  let buffer = new Uint8Array(Math.max(16, initialBytes));
  let pos = 0;

  const ensure = (extra: number): void => {
    if (pos + extra <= buffer.length) return;
    let size = buffer.length * 2;
    while (size < pos + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(buffer.subarray(0, pos));
    buffer = next;
  };

  const encode = (value: string): void => {
    ensure(value.length * 3);
    pos += encoder.encodeInto(value, buffer.subarray(pos)).written;
  };

  return {
    cell(value) {
      const start = pos;
      ensure(value.length * 3 + 2);
      for (let i = 0; i < value.length; i++) {
        const c = value.charCodeAt(i);
        if (c >= 0x80) {
          // Not ASCII: start over with the encoder.
          pos = start;
          if (/[",\r\n]/.test(value)) {
            buffer[pos++] = 34;
            encode(value.replace(QUOTE, '""'));
            ensure(1);
            buffer[pos++] = 34;
          } else {
            encode(value);
          }
          return;
        }
        if (c === 34 || c === 44 || c === 10 || c === 13) {
          pos = start;
          buffer[pos++] = 34;
          encode(value.replace(QUOTE, '""'));
          ensure(1);
          buffer[pos++] = 34;
          return;
        }
        buffer[pos++] = c;
      }
    },
    plain(value) {
      ensure(value.length * 3);
      for (let i = 0; i < value.length; i++) {
        const c = value.charCodeAt(i);
        if (c >= 0x80) {
          pos += encoder.encodeInto(value.slice(i), buffer.subarray(pos)).written;
          return;
        }
        buffer[pos++] = c;
      }
    },
    byte(value) {
      ensure(1);
      buffer[pos++] = value;
    },
    simpleCell(value, singleSpaces) {
      const n = value.length;
      if (n === 0) return true;
      if (value.charCodeAt(0) === 32 || value.charCodeAt(n - 1) === 32) return false;
      ensure(n);
      let previous = 0;
      for (let i = 0; i < n; i++) {
        const c = value.charCodeAt(i);
        if (c < 32 || c > 126 || c === 34 || c === 44 || (singleSpaces && c === 32 && previous === 32)) {
          pos -= i;
          return false;
        }
        buffer[pos++] = c;
        previous = c;
      }
      return true;
    },
    get length() {
      return pos;
    },
    bytes: () => buffer.subarray(0, pos),
  };
}

// The workbook's shared strings (xl/sharedStrings.xml), read as a stream and kept compactly: the
// strings of each group of 65,536 are joined into one string with an offset table, instead of a
// million small string objects (a 1M-row sheet of names has about a million shared strings).
import { xmlText } from './cellText.ts';

const GROUP = 1 << 16;

export interface SharedStrings {
  readonly count: number;
  /** The string at `index`, or undefined when the index is out of range. */
  get(index: number): string | undefined;
}

const SI = /<(?:\w+:)?si>([\s\S]*?)<\/(?:\w+:)?si>|<(?:\w+:)?si\/>/g;
const PHONETIC = /<(?:\w+:)?rPh\b[\s\S]*?<\/(?:\w+:)?rPh>/g;
const TEXT = /<(?:\w+:)?t(?:\s[^>]*)?>([^<]*)<\/(?:\w+:)?t>/g;

/** Visible text of a string item (<si>, <is>): its runs' <t> joined, phonetic guides (<rPh>) left out. */
export function itemText(body: string): string {
  const plain = /^<(?:\w+:)?t(?:\s[^>]*)?>([^<]*)<\/(?:\w+:)?t>$/.exec(body);
  if (plain) return xmlText(plain[1] ?? '');
  let text = '';
  for (const m of body.replace(PHONETIC, '').matchAll(TEXT)) text += m[1] ?? '';
  return xmlText(text);
}

/** Collects shared strings from the XML text of sharedStrings.xml, pushed in pieces. */
export function createSharedStringsReader() {
  const groups: string[] = [];
  const offsets: Uint32Array[] = [];
  let current: string[] = [];
  let count = 0;
  let carry = '';

  const seal = (): void => {
    const table = new Uint32Array(current.length + 1);
    let at = 0;
    current.forEach((s, i) => {
      table[i] = at;
      at += s.length;
    });
    table[current.length] = at;
    groups.push(current.join(''));
    offsets.push(table);
    current = [];
  };
  const add = (text: string): void => {
    current.push(text);
    count++;
    if (current.length === GROUP) seal();
  };

  return {
    push(text: string): void {
      const input = carry + text;
      let end = 0;
      SI.lastIndex = 0;
      for (let m = SI.exec(input); m; m = SI.exec(input)) {
        add(m[1] === undefined ? '' : itemText(m[1]));
        end = SI.lastIndex;
      }
      carry = input.slice(end);
    },
    end(): SharedStrings {
      if (current.length > 0) seal();
      carry = '';
      return {
        count,
        get(index) {
          const group = groups[Math.floor(index / GROUP)];
          const table = offsets[Math.floor(index / GROUP)];
          if (group === undefined || table === undefined) return undefined;
          const k = index % GROUP;
          if (k + 1 >= table.length) return undefined;
          return group.slice(table[k], table[k + 1]);
        },
      };
    },
  };
}

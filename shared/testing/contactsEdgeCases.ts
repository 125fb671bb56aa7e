// Edge shapes of files written elsewhere (issue 25: public CSV and workbook test corpora, Excel,
// LibreOffice, gnumeric), re-made here with the project's own writers, each with what cleaning must
// make of it. Tests of the engine, the xlsx reader and the CLI use them; add a shape here when a
// file from outside teaches a new one.
import { generateContacts } from './contactsGenerator.ts';
import type { GeneratorOptions } from './contactsGenerator.ts';
import { encryptedWorkbookBytes } from './oleWriter.ts';
import { xlsxBytes } from './xlsxWriter.ts';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

// ---- workbooks ----

/** Elapsed-time cells: 10.6459… days shown as [hh]:mm:ss is 255:10:10 (whole days count). */
export const elapsedTimeWorkbook = (): Uint8Array =>
  xlsxBytes({
    sheets: [
      {
        name: 'Calls',
        rows: [
          ['Mobile', 'Talk time', 'Wait', 'Shift', 'Total'],
          [
            919876543210,
            { serial: 10 + (15 * 3600 + 10 * 60 + 10) / 86400, style: 'elapsedHms' },
            { serial: (255 * 60 + 10) / 86400, style: 'elapsedMs' },
            { serial: 1 + (2 * 3600 + 30 * 60) / 86400, style: 'elapsedHm' },
            { serial: 2 + 0.5, style: 'elapsedBuiltIn' },
          ],
        ],
      },
    ],
  });
export const ELAPSED_TIME_CELLS = ['919876543210', '255:10:10', '255:10', '26:30', '60:00:00'];

/** Shared strings holding CRLF as Excel (_x000D_) and LibreOffice (&#13;) write it, and a raw CR. */
export const crlfStringsWorkbook = (): Uint8Array =>
  xlsxBytes({
    sheets: [
      {
        name: 'Notes',
        rows: [
          ['Mobile', 'Excel', 'LibreOffice', 'Rich text'],
          [
            919876543210,
            { sharedXml: '<t>call after 7_x000D_\nnot on Sunday</t>' },
            { sharedXml: '<t>call after 7&#13;\nnot on Sunday</t>' },
            { sharedXml: '<r><t>call after 7&#xD;</t></r><r><rPr><b/></rPr><t>\nnot on Sunday</t></r>' },
          ],
        ],
      },
    ],
  });
export const CRLF_STRING_CELLS = [
  '919876543210',
  'call after 7\r\nnot on Sunday',
  'call after 7\r\nnot on Sunday',
  'call after 7\r\nnot on Sunday',
];

/** Part names in other cases than the relationships give (OOXML part names are case-insensitive). */
export const partCaseWorkbook = (): Uint8Array =>
  xlsxBytes({
    partName: (name) =>
      ({
        '[Content_Types].xml': '[content_types].xml',
        '_rels/.rels': '_RELS/.rels',
        'xl/workbook.xml': 'xl/Workbook.xml',
        'xl/_rels/workbook.xml.rels': 'xl/_rels/Workbook.xml.rels',
        'xl/sharedStrings.xml': 'xl/SharedStrings.xml',
        'xl/styles.xml': 'xl/Styles.xml',
        'xl/worksheets/sheet1.xml': 'xl/Worksheets/Sheet1.xml',
      })[name] ?? name,
    sheets: [
      {
        name: 'Contacts',
        rows: [
          ['Name', 'Mobile'],
          ['Asha', { raw: '919876543210' }],
        ],
      },
    ],
  });

/** An .xlsx protected by a password: an OLE file with EncryptionInfo and EncryptedPackage. */
export const encryptedWorkbook = (): Uint8Array => encryptedWorkbookBytes();

// ---- CSV ----

/** A stray quote in the header (`"Age" (years)`); every data row must count, numbered from 2. */
export const strayQuoteHeaderCsv = (): Uint8Array =>
  utf8(
    'Name,"Age" (years),City,Phone\nAsha,31,Pune,9876543210\nRavi,40,Delhi,9876543211\nMeera,25,Goa,9876543212\n',
  );

/** A CRLF file where two lines end with a lone LF (one of them the last line): 4 records. */
export const loneLfCsv = (): Uint8Array =>
  utf8(
    'Name,Phone,City\r\nAsha,9876543210,Pune\nRavi,9876543211,Delhi\r\nMeera,9876543212,"Goa\nNorth"\r\nKabir,9876543213,Agra\n',
  );

/** A title and notes above a ;-delimited table (the title has commas). */
export const titledSemicolonCsv = (): Uint8Array =>
  utf8(
    'Collections report, March 2026, Pune branch\n' +
      'Exported by ops, do not edit\n' +
      '\n' +
      'Name;Phone;City;Amount\n' +
      'Asha;9876543210;Pune;1.234,50\n' +
      'Ravi;9876543211;Delhi;2.000,00\n' +
      'Meera;9876543212;Goa;15,75\n',
  );

/** The generator's file with title lines above its header (GeneratorOptions.title). */
export const generatedWithTitle = (options: Partial<GeneratorOptions> = {}) =>
  generateContacts({
    rows: 300,
    seed: 'titled',
    delimiter: ';',
    title: ['Customer list, April 2026, all branches', 'Source: loan book, export v2'],
    ...options,
  });

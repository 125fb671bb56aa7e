// Expected reasons a file cannot be cleaned. Messages are one line for people; hosts prefix the
// file name (the engine never sees paths).

export type ContactsErrorCode =
  | 'empty_file'
  | 'not_text'
  | 'invalid_utf8'
  | 'no_header'
  | 'no_phone_column'
  | 'unknown_column'
  | 'no_data_rows'
  | 'bad_option'
  | 'split_mismatch'
  | 'bad_workbook'
  | 'cancelled';

export class ContactsError extends Error {
  readonly code: ContactsErrorCode;
  constructor(code: ContactsErrorCode, message: string) {
    super(message);
    this.name = 'ContactsError';
    this.code = code;
  }
}

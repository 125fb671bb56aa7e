/**
 * Remembers every secret value the back end has seen (set or read) and blanks it out of any text
 * before that text is written anywhere (log lines, error details). Defence in depth: code should
 * never log a secret in the first place.
 */
export class Redactor {
  #secrets = new Set<string>();
  /** Sorted longest first, so a secret that contains another is replaced whole. */
  #ordered: string[] = [];

  add(value: string): void {
    if (value.length === 0 || this.#secrets.has(value)) return;
    this.#secrets.add(value);
    this.#ordered = [...this.#secrets].sort((a, b) => b.length - a.length);
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.#ordered) {
      if (out.includes(secret)) out = out.split(secret).join('[redacted]');
    }
    return out;
  }
}

/**
 * A category label broken into lines of at most `max` characters at spaces (a word longer than
 * that keeps its own line): a horizontal chart's axis gets at most about 27 characters of a narrow
 * card, and Chart.js cuts a longer one-line label at the card's edge ("alled (campaign time ended)").
 */
export function wrapLabel(text: string, max = 24): string | string[] {
  if (text.length <= max) return text;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.length === 1 ? lines[0]! : lines;
}

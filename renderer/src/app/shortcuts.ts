// The keyboard shortcuts the help dialog lists (opened with "?" or the sidebar's button). A
// feature that adds a shortcut adds a line to its group here, so the list stays complete.
import { QUEUE_KEYS } from '../features/calls/review/queueKeyList.ts';
import { routes } from './routes.ts';

export interface Shortcut {
  /** Alternatives ("Enter" or "F2"); keys pressed together are joined by "+" ("Ctrl+Home"). */
  keys: string[];
  does: string;
}

export interface ShortcutGroup {
  title: string;
  shortcuts: Shortcut[];
}

export const shortcutGroups: ShortcutGroup[] = [
  {
    title: 'Everywhere',
    shortcuts: [
      { keys: ['?'], does: 'Show these keyboard shortcuts' },
      { keys: ['Tab'], does: 'The first Tab reaches "Skip to content"; Enter moves to the page' },
      ...routes.map((r, i) => ({ keys: [`Alt+${i + 1}`], does: `Go to ${r.label}` })),
      { keys: ['Escape'], does: 'Close a dialog; focus goes back where it was' },
    ],
  },
  {
    title: 'Contacts grid',
    shortcuts: [
      { keys: ['Arrow keys'], does: 'Move between cells' },
      { keys: ['Page Up', 'Page Down'], does: 'Move a screen of rows' },
      { keys: ['Home', 'End'], does: 'First or last column' },
      { keys: ['Ctrl+Home'], does: 'First row' },
      { keys: ['Ctrl+End'], does: 'Last row' },
      { keys: ['Enter', 'F2'], does: 'Edit the cell (Enter saves, Escape cancels)' },
      { keys: ['Space'], does: 'On Row or Status: exclude or include the row' },
      { keys: ['Enter'], does: "On a duplicate's Status: go to the row it repeats" },
    ],
  },
  {
    title: 'Calls review queue (not while typing in a field)',
    shortcuts: QUEUE_KEYS.map((k) => ({ keys: [k.label], does: k.does })),
  },
];

/** The route an Alt+digit shortcut goes to, or null. */
export function routeForShortcut(event: {
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  key: string;
  code: string;
}) {
  if (!event.altKey || event.ctrlKey || event.metaKey) return null;
  // event.code: Alt+digit types other characters on some layouts (macOS Option+1 = ¡).
  const digit = /^Digit([1-9])$/.exec(event.code)?.[1] ?? (/^[1-9]$/.test(event.key) ? event.key : null);
  return digit ? (routes[Number(digit) - 1]?.id ?? null) : null;
}

/** True when the key press belongs to a text field (a typed "?" is text there, not a shortcut). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement)
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'range', 'color'].includes(
      target.type,
    );
  return false;
}

// The review queue's keys: what a key press asks for, or null when it is not the queue's (typing in
// a field, a modifier held, a key of a focused control such as Space on a button).
import { isTyping } from '../../../app/shortcuts.ts';
import type { QueueAction } from './queueKeyList.ts';
import { QUEUE_KEYS } from './queueKeyList.ts';

export type { QueueAction } from './queueKeyList.ts';
export { QUEUE_KEYS } from './queueKeyList.ts';

const within = (target: EventTarget | null, selector: string): boolean =>
  target instanceof Element && target.closest(selector) !== null;

/** Controls whose own Space must keep working when they have focus (it presses a button). */
const SPACE_OWNERS = 'button, a[href], summary, [role="tab"], [role="button"], [role="slider"], audio';

export function queueAction(event: {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  target: EventTarget | null;
  defaultPrevented: boolean;
}): QueueAction | null {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return null;
  // Typing in a field, or anything inside a dialog (the shortcuts help, a confirmation).
  if (isTyping(event.target) || within(event.target, 'dialog')) return null;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const entry = QUEUE_KEYS.find((k) => k.key === key);
  if (!entry) return null;
  // Space on a focused button presses it; the letters are never a control's own keys.
  if (entry.action === 'play' && within(event.target, SPACE_OWNERS)) return null;
  return entry.action;
}

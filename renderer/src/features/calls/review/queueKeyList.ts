// The review queue's keys as data (the queue and the app's shortcuts dialog both list them).

export type QueueAction = 'next' | 'previous' | 'reviewed' | 'flag' | 'note' | 'play';

export const QUEUE_KEYS: ReadonlyArray<{ key: string; label: string; action: QueueAction; does: string }> = [
  { key: 'j', label: 'J', action: 'next', does: 'Next call' },
  { key: 'k', label: 'K', action: 'previous', does: 'Previous call' },
  { key: 'r', label: 'R', action: 'reviewed', does: 'Mark reviewed and go to the next call' },
  { key: 'f', label: 'F', action: 'flag', does: 'Flag: choose a reason' },
  { key: 'n', label: 'N', action: 'note', does: 'Write a note' },
  { key: ' ', label: 'Space', action: 'play', does: 'Play or pause the recording' },
];

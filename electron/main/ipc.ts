import { BrowserWindow, ipcMain } from 'electron';
import type { IpcMainInvokeEvent } from 'electron';
import { channelNames, eventNames } from '../../shared/ipc/contract.ts';
import { fail } from '../../shared/ipc/result.ts';
import type { Desk } from '../services/createDesk.ts';
import { isAppUrl } from './trustedUrl.ts';

/** Only our top-level app://desk page may call the back end (not a frame, not another page). */
export function isTrustedSender(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame;
  return frame !== null && frame.parent === null && isAppUrl(frame.url);
}

/**
 * One ipcMain handler per channel of the contract, all through the same wrapper: sender check,
 * then `desk.handle` (which parses with zod and answers a Result). Events go to every window.
 */
export function bindDesk(desk: Desk): () => void {
  for (const channel of channelNames) {
    ipcMain.handle(channel, (event, payload: unknown) => {
      if (!isTrustedSender(event)) return fail('unauthorized', 'This page may not use Campaign Desk.');
      return desk.handle(channel, payload);
    });
  }
  const unsubscribes = eventNames.map((name) =>
    desk.on(name, (payload) => {
      for (const window of BrowserWindow.getAllWindows()) {
        if (!window.isDestroyed() && isAppUrl(window.webContents.getURL()))
          window.webContents.send(name, payload);
      }
    }),
  );
  return () => {
    for (const channel of channelNames) ipcMain.removeHandler(channel);
    unsubscribes.forEach((off) => off());
  };
}

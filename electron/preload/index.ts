/**
 * The sandboxed preload: exposes `window.desk` (one function per channel of the contract, and
 * `on(event, cb)` returning an unsubscribe) over fixed IPC channels. `ipcRenderer` itself never
 * reaches the page.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import { createDeskApi, isChannel, isEventName } from '../../shared/ipc/contract.ts';
import type { DeskTransport } from '../../shared/ipc/contract.ts';
import { fail } from '../../shared/ipc/result.ts';
import type { Result } from '../../shared/ipc/result.ts';

const ipcTransport: DeskTransport = {
  invoke(channel, request) {
    if (!isChannel(channel)) return Promise.resolve(fail('invalid_request', 'Unknown channel'));
    return ipcRenderer.invoke(channel, request) as Promise<Result<unknown>>;
  },
  subscribe(event, listener) {
    if (!isEventName(event)) return () => {};
    const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(event, wrapped);
    return () => void ipcRenderer.removeListener(event, wrapped);
  },
};

contextBridge.exposeInMainWorld('desk', createDeskApi(ipcTransport));

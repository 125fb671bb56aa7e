import type { DeskApi } from '../../../shared/ipc/contract.ts';

declare global {
  interface Window {
    /** Provided by Electron's preload, or installed by installDesk() in the browser host. */
    desk?: DeskApi;
  }
}

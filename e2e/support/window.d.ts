/// <reference lib="dom" />
import type { DeskApi } from '../../shared/ipc/contract.ts';

// page.evaluate() callbacks run in the page, where the renderer installs window.desk.
declare global {
  interface Window {
    desk?: DeskApi;
  }
}

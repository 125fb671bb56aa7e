import type { DeskApi } from '../../../shared/ipc/contract.ts';

/** The bridge to the back end. installDesk() runs before the first render, so it is always there. */
export function desk(): DeskApi {
  const api = window.desk;
  if (!api) throw new Error('window.desk is not installed');
  return api;
}

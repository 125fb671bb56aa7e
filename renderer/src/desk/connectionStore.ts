import { create } from 'zustand';
import type { TransportStatus } from './browserTransport.ts';

/** The state of the link to the back end, for the shell (banner, refusal page). */
interface ConnectionState {
  host: 'electron' | 'browser';
  status: TransportStatus;
  /** Skips the reconnect wait; a no-op in Electron. */
  retry: () => void;
}

export const useConnection = create<ConnectionState>(() => ({
  host: 'electron',
  status: { state: 'open' },
  retry: () => {},
}));

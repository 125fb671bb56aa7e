import { useEffect, useRef } from 'react';
import { desk } from '../desk/desk.ts';
import { useConnection } from '../desk/connectionStore.ts';
import { useApp } from './appStore.ts';

/**
 * Loads the first data, keeps it fresh from back-end events, and publishes the app state on <html>
 * (`data-app-state="loading|ready|error"`) for tests and for anyone waiting on startup.
 */
export function useAppLifecycle() {
  const phase = useApp((s) => s.phase);
  const connection = useConnection((s) => s.status.state);
  const previousConnection = useRef(connection);

  useEffect(() => {
    void useApp.getState().load();
    const offWorkspaces = desk().on('workspaces:changed', () => void useApp.getState().refreshWorkspaces());
    const offConnectivity = desk().on('app:connectivity-changed', (payload) =>
      useApp.getState().setConnectivity(payload),
    );
    const online = () => useApp.getState().setBrowserOnline(true);
    const offline = () => useApp.getState().setBrowserOnline(false);
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    return () => {
      offWorkspaces();
      offConnectivity();
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
    };
  }, []);

  // After a reconnect we may have missed events: load again.
  useEffect(() => {
    if (connection === 'open' && previousConnection.current === 'reconnecting') void useApp.getState().load();
    previousConnection.current = connection;
  }, [connection]);

  useEffect(() => {
    const state =
      connection === 'refused' || phase === 'error' ? 'error' : phase === 'ready' ? 'ready' : 'loading';
    document.documentElement.dataset.appState = state;
  }, [phase, connection]);
}

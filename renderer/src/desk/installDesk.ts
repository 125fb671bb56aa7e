import type { DeskApi } from '../../../shared/ipc/contract.ts';
import { createDeskApi } from '../../../shared/ipc/contract.ts';
import { DESK_SOCKET_PATH } from '../../../shared/ipc/wire.ts';
import { takeAccessToken, tokenFromHash } from './accessToken.ts';
import { adaptWebSocket, createBrowserTransport } from './browserTransport.ts';
import { useConnection } from './connectionStore.ts';

/**
 * Makes window.desk available. Electron's preload already provides it; in the browser host we build
 * it over the WebSocket, with the token taken from the address bar and kept in this closure only.
 */
export function installDesk(): DeskApi {
  if (window.desk) {
    useConnection.setState({ host: 'electron', status: { state: 'open' } });
    return window.desk;
  }
  const token = takeAccessToken(window.location, window.history);
  // Pasting the printed address into this tab only changes the fragment, which does not reload the
  // page: start again so the new token is used (the usual way out of the refusal page).
  window.addEventListener('hashchange', () => {
    if (tokenFromHash(window.location.hash) !== null) window.location.reload();
  });
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const url =
    token === null
      ? null
      : `${scheme}//${window.location.host}${DESK_SOCKET_PATH}?token=${encodeURIComponent(token)}`;
  const transport = createBrowserTransport({
    url,
    openSocket: (socketUrl) => adaptWebSocket(new WebSocket(socketUrl)),
    hostAnswers: async () => {
      try {
        const response = await fetch(`${window.location.origin}/`, { method: 'HEAD', cache: 'no-store' });
        return response.status > 0;
      } catch {
        return false;
      }
    },
    onStatus: (status) => useConnection.setState({ status }),
  });
  useConnection.setState({
    host: 'browser',
    status: transport.status(),
    retry: () => transport.reconnectNow(),
  });
  const desk = createDeskApi(transport);
  Object.defineProperty(window, 'desk', {
    value: desk,
    writable: false,
    configurable: false,
    enumerable: false,
  });
  return desk;
}

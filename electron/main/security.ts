import { app, shell } from 'electron';
import type { Session, WebContents } from 'electron';
import { APP_ORIGIN, externalUrl, isAppUrl } from './trustedUrl.ts';

/** Permissions our own page may use; everything else, from anyone, is denied. */
const allowedPermissions = new Set(['clipboard-sanitized-write']);

const openExternally = (url: string) => {
  const safe = externalUrl(url);
  if (safe) void shell.openExternal(safe);
};

/** Guards for every web contents that will ever exist (windows, devtools, anything). */
export function installContentGuards(): void {
  app.on('web-contents-created', (_event, contents: WebContents) => {
    // No navigation away from the page it was loaded with; https links go to the OS browser.
    contents.on('will-navigate', (event) => {
      event.preventDefault();
      openExternally(event.url);
    });
    contents.on('will-frame-navigate', (event) => {
      if (!isAppUrl(event.url)) event.preventDefault();
    });
    contents.on('will-redirect', (event) => {
      if (!isAppUrl(event.url)) event.preventDefault();
    });
    // No new windows of any kind.
    contents.setWindowOpenHandler(({ url }) => {
      openExternally(url);
      return { action: 'deny' };
    });
    // No <webview>, ever.
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}

/** Deny-by-default permission handlers on a session. */
export function installPermissionGuards(session: Session): void {
  session.setPermissionRequestHandler((contents, permission, callback) => {
    callback(allowedPermissions.has(permission) && isAppUrl(contents.getURL()));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) => {
    return allowedPermissions.has(permission) && requestingOrigin === APP_ORIGIN;
  });
  session.setDevicePermissionHandler(() => false);
  session.setDisplayMediaRequestHandler((_request, callback) => callback({}));
}

/**
 * Electron main: lifecycle only. Security guards, the app:// protocol, the IPC binding and the
 * window live in their own modules; the back end is createDesk (plain Node).
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, session } from 'electron';
import { DeskFailure } from '../../shared/ipc/result.ts';
import type { Desk } from '../services/createDesk.ts';
import { startDesk } from '../services/startDesk.ts';
import { defaultDataDir } from '../services/dataDir.ts';
import { handleAppProtocol, registerAppScheme } from './appProtocol.ts';
import { bindDesk } from './ipc.ts';
import { installContentGuards, installPermissionGuards } from './security.ts';
import { createMainWindow } from './window.ts';
import type { MainWindow } from './window.ts';

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = defaultDataDir();
// Chromium's own profile lives inside the data folder too (one place to back up or remove).
mkdirSync(join(dataDir, 'electron'), { recursive: true, mode: 0o700 });
app.setPath('userData', join(dataDir, 'electron'));

app.enableSandbox();
registerAppScheme();
installContentGuards();

let desk: Desk | null = null;
let main: MainWindow | null = null;

async function start(): Promise<void> {
  installPermissionGuards(session.defaultSession);
  handleAppProtocol(session.defaultSession, join(app.getAppPath(), 'dist', 'renderer'));
  // The window opens while the database is upgraded (it shows the upgrade), or once started.
  const starting = startDesk({ dataDir, host: 'electron', version: app.getVersion() });
  try {
    await starting.answering;
    desk = starting.desk;
  } catch (error) {
    const message =
      error instanceof DeskFailure
        ? error.message
        : 'The back end could not start. The details are in the log file.';
    dialog.showErrorBox('Campaign Desk cannot start', message);
    app.exit(1);
    return;
  }
  bindDesk(desk);
  await openWindow(desk);
}

async function openWindow(backEnd: Desk): Promise<void> {
  const opened = await createMainWindow(backEnd, join(here, 'preload.cjs'));
  main = opened;
  opened.window.on('closed', () => {
    if (main === opened) main = null;
  });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!main) return;
    if (main.window.isMinimized()) main.window.restore();
    main.window.focus();
  });
  app.on('window-all-closed', () => app.quit());
  app.on('activate', () => {
    if (desk && BrowserWindow.getAllWindows().length === 0) void openWindow(desk);
  });
  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting || !desk) return;
    quitting = true;
    event.preventDefault();
    const backEnd = desk;
    void (main?.saveState() ?? Promise.resolve()).then(() => backEnd.close()).finally(() => app.quit());
  });
  void app.whenReady().then(start);
}

import { BrowserWindow, screen } from 'electron';
import type { Desk, WindowState } from '../services/createDesk.ts';
import { APP_ENTRY } from './trustedUrl.ts';

/** The renderer's security settings: sandboxed, isolated, no Node, no webview. */
export const secureWebPreferences = (preload: string): Electron.WebPreferences => ({
  preload,
  sandbox: true,
  contextIsolation: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webviewTag: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  navigateOnDragDrop: false,
  safeDialogs: true,
  spellcheck: false,
});

/** Saved bounds are used only if they are still on a connected display. */
const visible = (state: WindowState) =>
  state.x === undefined ||
  state.y === undefined ||
  screen.getAllDisplays().some(({ workArea: a }) => {
    const x = state.x!;
    const y = state.y!;
    return x + 100 > a.x && x < a.x + a.width - 100 && y >= a.y - 10 && y < a.y + a.height - 100;
  });

export interface MainWindow {
  window: BrowserWindow;
  /** Saves the bounds now (quitting closes the back end before the window's own close event). */
  saveState(): Promise<void>;
}

/** The main window, restored to its last bounds; bounds are saved (debounced) as they change. */
export async function createMainWindow(desk: Desk, preload: string): Promise<MainWindow> {
  const saved = await desk.windowState.get().catch(() => null);
  const state = saved && visible(saved) ? saved : null;
  const window = new BrowserWindow({
    width: state?.width ?? 1280,
    height: state?.height ?? 840,
    ...(state?.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Campaign Desk',
    backgroundColor: '#1b1d22',
    webPreferences: secureWebPreferences(preload),
  });
  if (state?.maximized) window.maximize();

  let timer: NodeJS.Timeout | undefined;
  const save = async () => {
    clearTimeout(timer);
    if (window.isDestroyed()) return;
    const maximized = window.isMaximized();
    const bounds = maximized ? window.getNormalBounds() : window.getBounds();
    await desk.windowState
      .set({ x: bounds.x, y: bounds.y, width: bounds.width, height: bounds.height, maximized })
      .catch(() => undefined);
  };
  const saveSoon = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void save(), 500);
  };
  window.on('resize', saveSoon);
  window.on('move', saveSoon);
  window.on('maximize', saveSoon);
  window.on('unmaximize', saveSoon);
  window.on('close', () => void save());
  window.once('ready-to-show', () => window.show());
  await window.loadURL(APP_ENTRY);
  return { window, saveState: save };
}

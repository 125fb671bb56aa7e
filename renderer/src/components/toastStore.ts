import { create } from 'zustand';

export interface Toast {
  id: number;
  tone: 'success' | 'info' | 'error';
  message: string;
}

interface ToastState {
  toasts: Toast[];
  show: (tone: Toast['tone'], message: string, timeoutMs?: number) => void;
  dismiss: (id: number) => void;
}

let nextId = 1;

/** Short confirmations after an action ("Workspace saved"). At most four stay on screen. */
export const useToasts = create<ToastState>((set, get) => ({
  toasts: [],
  show: (tone, message, timeoutMs = 5_000) => {
    const id = nextId++;
    set({ toasts: [...get().toasts, { id, tone, message }].slice(-4) });
    setTimeout(() => get().dismiss(id), timeoutMs);
  },
  dismiss: (id) => set({ toasts: get().toasts.filter((t) => t.id !== id) }),
}));

export const toast = {
  success: (message: string) => useToasts.getState().show('success', message),
  info: (message: string) => useToasts.getState().show('info', message),
  error: (message: string) => useToasts.getState().show('error', message, 8_000),
};

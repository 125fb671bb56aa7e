import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The renderer is one static bundle served by Electron's app:// protocol or by the browser host.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: { outDir: '../dist/renderer', emptyOutDir: true, target: 'es2023', sourcemap: true },
  worker: { format: 'es' },
});

/** A plain antd app (a sign-in page and a back-office list page) built the same way as apps/web, as a yardstick for bench/web-bundle.mjs. */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { compressAssets } from '../../apps/web/vite-compress.ts';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), compressAssets()],
  logLevel: 'warn',
  build: {
    outDir: process.env.PLAIN_ANTD_OUT ?? 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: { input: { login: path.join(import.meta.dirname, 'index.html'), list: path.join(import.meta.dirname, 'list.html') } },
  },
});

import { defineConfig } from 'vite';

// The pages load only their own bundled files: no inline script (the server's CSP forbids it).
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  build: { outDir: '../dist/web', emptyOutDir: true, modulePreload: { polyfill: false }, assetsInlineLimit: 0, chunkSizeWarningLimit: 1000 },
  logLevel: 'warn',
});

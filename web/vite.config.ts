// The web UI's build: React through esbuild's automatic JSX (no plugin needed for a
// production build), into web/dist, which the server serves at /.
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
  },
  server: {
    // `npx vite web` during development: the API from a running server.
    proxy: { '/node/api': 'http://localhost:8080' },
  },
});

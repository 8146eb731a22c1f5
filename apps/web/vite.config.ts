import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { catalogs } from './build/catalogs.ts';
import { chunkGroups } from './build/chunk-groups.ts';
import { contractSchemasArePure } from './build/contract-schemas-are-pure.ts';
import { embedScript } from './build/embed-script.ts';
import { entryPageTemplate } from './build/entry-page-template.ts';
import { reportInitialScriptSize } from './build/initial-script-size.ts';
import { precompressAssets } from './build/precompress-assets.ts';
import { productionAliases } from './build/production-aliases.ts';
import { renderFirstScreenOnServer } from './build/render-first-screen-on-server.ts';
import { serviceWorker } from './build/service-worker.ts';
import { startFirstScreenEarly } from './build/start-first-screen-early.ts';

/** The API server the dev server forwards /api to (npm start's default address). */
const apiTarget = process.env.API_URL ?? 'http://localhost:3000';

export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    contractSchemasArePure(),
    catalogs(),
    reportInitialScriptSize(),
    startFirstScreenEarly(),
    renderFirstScreenOnServer(),
    entryPageTemplate(),
    serviceWorker(),
    embedScript(),
    precompressAssets(),
  ],
  resolve: { alias: command === 'build' ? productionAliases : [] },
  server: {
    port: 5173,
    // The share pages (/q/{id}) are the server's too.
    proxy: { '/api': { target: apiTarget, changeOrigin: true }, '/q/': { target: apiTarget, changeOrigin: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Every browser the app supports preloads modules natively.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // The app, and the page the service worker shows when the device is offline.
      input: { index: 'index.html', offline: 'offline.html' },
      // Only the matching modules join a group, so code the entry chunk needs stays in it.
      output: { codeSplitting: { groups: chunkGroups, includeDependenciesRecursively: false } },
    },
  },
}));

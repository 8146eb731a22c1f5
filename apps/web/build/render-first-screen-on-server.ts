import react from '@vitejs/plugin-react';
import path from 'node:path';
import { build, type Plugin, type ResolvedConfig } from 'vite';
import { catalogs } from './catalogs.ts';
import { contractSchemasArePure } from './contract-schemas-are-pure.ts';
import { productionAliases } from './production-aliases.ts';

/** Where the server finds the renderer of the first screen, in the build's folder. */
const SERVER_RENDERER_FILE = 'server/first-screen.js';

/**
 * Builds the renderer the server uses to put a signed-in person's feed in the page
 * (src/app/first-screen-on-server.tsx): a module for Node of its own, with React and the app's
 * code in it, so that the server loads it from the build's folder with nothing else installed.
 */
export function renderFirstScreenOnServer(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'pollscope:render-first-screen-on-server',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async writeBundle(options) {
      await build({
        configFile: false,
        root: config.root,
        publicDir: false,
        logLevel: 'warn',
        plugins: [react(), contractSchemasArePure(), catalogs()],
        resolve: { alias: productionAliases },
        define: { 'process.env.NODE_ENV': JSON.stringify('production') },
        ssr: { noExternal: true },
        build: {
          ssr: path.join(config.root, 'src/app/first-screen-on-server.tsx'),
          outDir: path.join(options.dir!, path.dirname(SERVER_RENDERER_FILE)),
          // The build's own folder was emptied before it, and holds the entry page's template (entry-page-template.ts).
          emptyOutDir: false,
          rolldownOptions: { output: { entryFileNames: path.basename(SERVER_RENDERER_FILE) } },
        },
      });
    },
  };
}

/**
 * Builds the server into one file, `dist/server.js`, that `npm start` runs with plain Node (and
 * `dist/card-drawing.js`, which it starts as a thread when it draws a picture): the
 * TypeScript is compiled once here instead of by a loader in the running server, whose thread
 * took about 50 MB of the server's memory. The npm packages stay outside the file and load from
 * node_modules as usual; the shared contract, TypeScript itself, is compiled in.
 */
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(fs.readFileSync(path.join(serverDir, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
const external = Object.keys(manifest.dependencies).filter((name) => name !== '@pollscope/contract');

await build({
  // The server, and beside it the code of the thread that draws preview pictures (modules/share/card-drawer.ts).
  entryPoints: ['src/server.ts', 'src/modules/share/card-drawing.ts'].map((entry) => path.join(serverDir, entry)),
  outdir: path.join(serverDir, 'dist'),
  entryNames: '[name]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  logLevel: 'warning',
});

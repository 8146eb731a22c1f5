import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { build, type Plugin, type ResolvedConfig, type Rolldown } from 'vite';
import { isServersOwn } from './entry-page-template.ts';

/** The page the server writes from the build's, in the language of whoever asks, and never lets be cached. */
const ENTRY_PAGE = 'index.html';

/** Every file under `dir`, by its path from there. */
function filesIn(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .flatMap((entry) => (entry.isFile() ? [path.relative(dir, path.join(entry.parentPath, entry.name))] : []));
}

/** The files the worker keeps, as `/path`, and their version: a hash of all their contents. */
function precacheOf(contents: ReadonlyMap<string, string | Uint8Array>) {
  const files = [...contents.keys()].sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file}\0`).update(contents.get(file)!).update('\0');
  return { version: hash.digest('base64url').slice(0, 16), urls: files.map((file) => `/${file}`) };
}

/**
 * Builds the service worker (src/service-worker/sw.ts) into /sw.js, a bundle of its own and a
 * classic script as every browser runs workers, with the files it keeps written in: every file of
 * the build and of public/ but the entry page and the server's own files, which no browser gets as
 * they are. Their version is a hash of all their contents, so any change of one is a new version.
 */
export function serviceWorker(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'pollscope:service-worker',
    apply: 'build',
    // After the HTML pages are written into the bundle: the offline page is one of the files kept.
    enforce: 'post',
    configResolved(resolved) {
      config = resolved;
    },
    async generateBundle(_options, bundle) {
      const contents = new Map<string, string | Uint8Array>();
      for (const output of Object.values(bundle))
        if (output.fileName !== ENTRY_PAGE && !isServersOwn(output.fileName))
          contents.set(output.fileName, output.type === 'chunk' ? output.code : output.source);
      if (config.publicDir)
        for (const file of filesIn(config.publicDir))
          contents.set(file, fs.readFileSync(path.join(config.publicDir, file)));
      const worker = (await build({
        configFile: false,
        root: config.root,
        publicDir: false,
        logLevel: 'warn',
        define: { __PRECACHE__: JSON.stringify(precacheOf(contents)) },
        build: {
          write: false,
          rolldownOptions: {
            input: path.join(config.root, 'src/service-worker/sw.ts'),
            output: { format: 'iife', entryFileNames: 'sw.js' },
          },
        },
      })) as Rolldown.RolldownOutput;
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: worker.output[0].code });
    },
  };
}

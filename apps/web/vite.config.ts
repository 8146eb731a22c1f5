import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import fs from 'node:fs';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import ts from 'typescript';
import { build, defineConfig, type Plugin, type ResolvedConfig, type Rolldown } from 'vite';
import { catalogs, isFirstCatalogPart } from './build/catalogs';
import type { FeedScreenFiles } from './src/early-data';

/** The API server the dev server forwards /api to (npm start's default address). */
const apiTarget = process.env.API_URL ?? 'http://localhost:3000';

/**
 * The contract package defines its zod schemas as top-level calls, which a bundler must assume
 * have side effects, so every page would carry all of zod although the app uses only the
 * contract's paths, display ids and limits at run time. Marking each top-level initializer of
 * the contract pure lets the unused schemas, and zod with them, drop out of the build.
 */
function contractSchemasArePure(): Plugin {
  return {
    name: 'pollscope:contract-schemas-are-pure',
    apply: 'build',
    transform(code, id) {
      if (!id.includes('/packages/contract/src/')) return null;
      const source = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
      const initializers = source.statements
        .filter(ts.isVariableStatement)
        .flatMap((statement) => statement.declarationList.declarations)
        .map((declaration) => declaration.initializer)
        .filter(
          (initializer): initializer is ts.Expression =>
            initializer !== undefined && !ts.isLiteralExpression(initializer),
        );
      let result = code;
      for (const initializer of initializers.reverse()) {
        const start = initializer.getStart(source);
        const end = initializer.getEnd();
        result = `${result.slice(0, start)}/*#__PURE__*/ (() => (${result.slice(start, end)}))()${result.slice(end)}`;
      }
      return { code: result, map: null };
    },
  };
}

/**
 * React Router's package exports point every bundler at its development build, warnings and
 * all; a production build takes the production files instead.
 */
const reactRouterDist = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production',
);
const productionReactRouter = [
  { find: /^react-router$/, replacement: path.join(reactRouterDist, 'index.mjs') },
  { find: /^react-router\/dom$/, replacement: path.join(reactRouterDist, 'dom-export.mjs') },
];

/** What a build resolves differently: React Router's production files, and no message parser (build/catalogs.ts). */
const productionAliases = [
  ...productionReactRouter,
  {
    find: /^@formatjs\/icu-messageformat-parser$/,
    replacement: createRequire(import.meta.url).resolve('@formatjs/icu-messageformat-parser/no-parser.js'),
  },
];

/** The JavaScript a first visit may load before any screen's own code, in gzip kB. */
const INITIAL_SCRIPT_BUDGET_KB = 100;

/**
 * Reports the gzip size of the initial JavaScript: the entry chunk and every chunk it imports
 * statically (those index.html preloads), the script inlined in index.html, and the largest
 * first part of a catalog, the one language's texts the first screen needs. Screens load later,
 * each on its first visit.
 */
function reportInitialScriptSize(): Plugin {
  return {
    name: 'pollscope:initial-script-size',
    apply: 'build',
    writeBundle(_options, bundle) {
      const chunks = new Map(
        Object.values(bundle).flatMap((output) =>
          output.type === 'chunk' ? [[output.fileName, output] as const] : [],
        ),
      );
      const initial = new Set<string>();
      const visit = (fileName: string) => {
        if (initial.has(fileName)) return;
        initial.add(fileName);
        chunks.get(fileName)?.imports.forEach(visit);
      };
      for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);
      const page = bundle['index.html'];
      const inline =
        page?.type === 'asset'
          ? [...String(page.source).matchAll(/<script>([^]*?)<\/script>/g)].map(([, code]) => code)
          : [];
      const gzipKilobytes = (code: string) => gzipSync(code).length / 1000;
      const scripts = [...[...initial].map((fileName) => chunks.get(fileName)!.code), ...inline];
      const code = scripts.reduce((total, script) => total + gzipKilobytes(script), 0);
      const catalog = Math.max(
        0,
        ...[...chunks.values()]
          .filter((chunk) => isFirstCatalogPart(chunk.facadeModuleId))
          .map((chunk) => gzipKilobytes(chunk.code)),
      );
      const kilobytes = code + catalog;
      const verdict = kilobytes <= INITIAL_SCRIPT_BUDGET_KB ? 'within' : 'OVER';
      this.info(
        `initial JavaScript: ${kilobytes.toFixed(2)} kB gzip (${code.toFixed(2)} kB in ${initial.size} file(s) and ${inline.length} inline script(s), ${catalog.toFixed(2)} kB of the largest catalog's first part), ${verdict} the ${INITIAL_SCRIPT_BUDGET_KB} kB budget`,
      );
    },
  };
}

/**
 * Writes a Brotli and a gzip copy beside each text file of the build, which the server sends to
 * browsers that accept them: compressed once at build time rather than on every request.
 */
function precompressAssets(): Plugin {
  return {
    name: 'pollscope:precompress-assets',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir!;
      const textFiles = [...Object.keys(bundle), 'index.html', 'favicon.svg', 'manifest.webmanifest'].filter(
        (fileName) => /\.(js|css|html|svg|json|webmanifest)$/.test(fileName),
      );
      for (const fileName of new Set(textFiles)) {
        const file = path.join(outDir, fileName);
        if (!fs.existsSync(file)) continue;
        const content = fs.readFileSync(file);
        fs.writeFileSync(`${file}.br`, brotliCompressSync(content));
        fs.writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

/** Every file under `dir`, by its path from there. */
function filesIn(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .flatMap((entry) => (entry.isFile() ? [path.relative(dir, path.join(entry.parentPath, entry.name))] : []));
}

/**
 * Builds the service worker (src/service-worker/sw.ts) into /sw.js, a bundle of its own and a
 * classic script as every browser runs workers, with the files it keeps written in: every file of
 * the build and of public/ but the entry page, which the server writes and never lets be cached.
 * Their version is a hash of all their contents, so any change of one is a new version.
 */
function serviceWorker(): Plugin {
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
        contents.set(output.fileName, output.type === 'chunk' ? output.code : output.source);
      if (config.publicDir)
        for (const file of filesIn(config.publicDir))
          contents.set(file, fs.readFileSync(path.join(config.publicDir, file)));
      contents.delete('index.html');
      const files = [...contents.keys()].sort();
      const hash = createHash('sha256');
      for (const file of files) hash.update(`${file}\0`).update(contents.get(file)!).update('\0');
      const precache = { version: hash.digest('base64url').slice(0, 16), urls: files.map((file) => `/${file}`) };
      const worker = (await build({
        configFile: false,
        root: config.root,
        publicDir: false,
        logLevel: 'warn',
        define: { __PRECACHE__: JSON.stringify(precache) },
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

/** Where the build writes the embed's file names, which the server reads (apps/server/src/modules/embed/files.ts). */
const EMBED_FILES = 'embed.json';

/** What a page framing a question loads of ours, script and style sheet, in gzip kB: the build fails past it. */
const EMBED_BUDGET_KB = 15;

/**
 * Builds the embed's script (src/embed/embed.ts) and its style sheet into hashed files of their own, sharing no chunk
 * with the app: a page that frames a question loads them and nothing the app's screens need. After the service worker
 * lists its files, so that the app's visitors do not download them.
 */
function embedScript(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'pollscope:embed',
    apply: 'build',
    enforce: 'post',
    configResolved(resolved) {
      config = resolved;
    },
    async generateBundle() {
      const built = (await build({
        configFile: false,
        root: config.root,
        publicDir: false,
        logLevel: 'warn',
        plugins: [contractSchemasArePure()],
        build: {
          write: false,
          rolldownOptions: {
            input: path.join(config.root, 'src/embed/embed.ts'),
            output: { entryFileNames: 'assets/embed-[hash].js', assetFileNames: 'assets/embed-[hash][extname]' },
          },
        },
      })) as Rolldown.RolldownOutput;
      const script = built.output.find((output) => output.type === 'chunk' && output.isEntry);
      const style = built.output.find((output) => output.fileName.endsWith('.css'));
      if (script?.type !== 'chunk' || style?.type !== 'asset' || built.output.length !== 2)
        this.error(`The embed must build into one script and one style sheet, not ${built.output.length} files`);
      for (const output of built.output)
        this.emitFile({
          type: 'asset',
          fileName: output.fileName,
          source: output.type === 'chunk' ? output.code : output.source,
        });
      this.emitFile({
        type: 'asset',
        fileName: EMBED_FILES,
        source: JSON.stringify({ script: `/${script.fileName}`, style: `/${style.fileName}` }),
      });
      const kilobytes = (gzipSync(script.code).length + gzipSync(style.source).length) / 1000;
      const report = `embed: ${kilobytes.toFixed(2)} kB gzip, script and style sheet, against its ${EMBED_BUDGET_KB} kB budget`;
      if (kilobytes > EMBED_BUDGET_KB) this.error(`${report}: OVER`);
      this.info(report);
    },
  };
}

/** The module of the frame every screen is shown in, and that of the feed, a signed-in person's first screen. */
const frameModule = '/src/app/root.tsx';
const feedScreenModule = '/src/app/routes/home.tsx';

/** The page's first script (its `startFirstScreen`), inlined in index.html. */
const earlyDataModule = 'src/early-data.ts';

/**
 * The page's first script as one self-contained classic script, with the built names of the feed
 * screen's files written in: a bundle of its own, run where the build inlines it.
 */
async function buildEarlyDataScript(root: string, files: FeedScreenFiles): Promise<string> {
  const start = '\0pollscope:start-first-screen';
  const script = (await build({
    configFile: false,
    root,
    publicDir: false,
    logLevel: 'warn',
    plugins: [
      contractSchemasArePure(),
      {
        name: 'pollscope:start-first-screen',
        resolveId: (id) => (id === start ? id : null),
        load: (id) =>
          id === start
            ? `import { startFirstScreen } from ${JSON.stringify(path.join(root, earlyDataModule))};\nstartFirstScreen(${JSON.stringify(files)});`
            : null,
      },
    ],
    build: { write: false, rolldownOptions: { input: start, output: { format: 'iife' } } },
  })) as Rolldown.RolldownOutput;
  return script.output[0].code.trim().replaceAll('</script', '<\\/script');
}

/**
 * Starts what the first screen needs with the page, rather than once the entry chunk (the
 * framework, the longest to load and run) has run: index.html preloads the code and styles of the
 * frame every screen is shown in beside the entry chunk, and has first in its head, inlined, the
 * script that starts the feed's data and its screen's code and styles for a signed-in person
 * opening the app at its start (src/early-data.ts). Run as the page is parsed, it waits for no
 * file; the screen's files are preloaded by it rather than by the page, so that other screens'
 * visitors do not download them.
 */
function startFirstScreenEarly(firstScreen: FirstScreenStyles): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'pollscope:start-first-screen-early',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html, { bundle, filename }) {
        if (!bundle || path.basename(filename) !== 'index.html') return undefined;
        const chunks = new Map(
          Object.values(bundle).flatMap((output) =>
            output.type === 'chunk' ? [[output.fileName, output] as const] : [],
          ),
        );
        const named = (test: (chunk: Rolldown.OutputChunk) => boolean) => [...chunks.values()].find(test)!;
        const byModule = (module: string) => named((chunk) => chunk.facadeModuleId?.endsWith(module) ?? false);
        const closure = (fileName: string, into: Set<string>) => {
          if (into.has(fileName)) return;
          into.add(fileName);
          chunks.get(fileName)!.imports.forEach((imported) => closure(imported, into));
        };
        const stylesOf = (fileNames: Iterable<string>) =>
          [...fileNames].flatMap((fileName) => [...(chunks.get(fileName)!.viteMetadata?.importedCss ?? [])]);
        // What index.html loads already: the entry chunk, what Vite preloads for it, and its styles.
        const loaded = new Set<string>();
        closure(named((chunk) => chunk.isEntry && chunk.name === 'index').fileName, loaded);
        stylesOf([...loaded]).forEach((css) => loaded.add(css));
        const frame = new Set<string>();
        closure(byModule(frameModule).fileName, frame);
        const frameScripts = [...frame].filter((fileName) => !loaded.has(fileName));
        const frameStyles = stylesOf(frame).filter((fileName) => !loaded.has(fileName));
        const feed = new Set<string>();
        closure(byModule(feedScreenModule).fileName, feed);
        const feedScreen = {
          modules: [...feed]
            .filter((fileName) => !loaded.has(fileName) && !frame.has(fileName))
            .map((fileName) => `/${fileName}`),
          styles: stylesOf(feed)
            .filter((fileName) => !loaded.has(fileName) && !frameStyles.includes(fileName))
            .map((fileName) => `/${fileName}`),
        };
        firstScreen.styles = [...frameStyles.map((fileName) => `/${fileName}`), ...feedScreen.styles];
        const charset = /<meta charset="[^"]*" \/>/.exec(html);
        if (!charset) throw new Error('index.html has no <meta charset> to put the early-data script after');
        // Right after the charset, before any style sheet, which a script would wait for, and before the page's files
        // take the browser's few connections to the site.
        const early = `\n    <script>${await buildEarlyDataScript(config.root, feedScreen)}</script>`;
        return {
          html: html.replace(charset[0], `${charset[0]}${early}`),
          tags: [
            ...frameScripts.map((fileName) => ({
              tag: 'link',
              attrs: { rel: 'modulepreload', crossorigin: true, href: `/${fileName}` },
              injectTo: 'head' as const,
            })),
            ...frameStyles.map((fileName) => ({
              tag: 'link',
              attrs: { rel: 'preload', as: 'style', crossorigin: true, href: `/${fileName}` },
              injectTo: 'head' as const,
            })),
          ],
        };
      },
    },
  };
}

/** The style sheets the frame and the feed screen need beyond the page's own, as the client's build named them. */
interface FirstScreenStyles {
  styles: string[];
}

/** Where the server finds the renderer of the first screen, in the build's folder. */
const serverRendererFile = 'server/first-screen.js';

/**
 * Builds the renderer the server uses to put a signed-in person's feed in the page
 * (src/app/first-screen-on-server.tsx): a module for Node of its own, with React and the app's
 * code in it, so that the server loads it from the build's folder with nothing else installed.
 */
function renderFirstScreenOnServer(firstScreen: FirstScreenStyles): Plugin {
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
        define: {
          'process.env.NODE_ENV': JSON.stringify('production'),
          __FIRST_SCREEN_STYLES__: JSON.stringify(firstScreen.styles),
        },
        ssr: { noExternal: true },
        build: {
          ssr: path.join(config.root, 'src/app/first-screen-on-server.tsx'),
          outDir: path.join(options.dir!, path.dirname(serverRendererFile)),
          emptyOutDir: true,
          rolldownOptions: { output: { entryFileNames: path.basename(serverRendererFile) } },
        },
      });
    },
  };
}

/** What the entry chunk itself needs, which must stay in it rather than add a chunk to the first load. */
const entryModules =
  /\/(apps\/web\/src\/(main\.tsx|app\/(router\.tsx|route-handle\.ts|first-screen\.ts)|config\/paths\.ts|lib\/(auth-token|prefetch|destination|server-rendered|tracked-promise)\.ts|lib\/(navigation|lazy-component)\.tsx|components\/ui\/(loading|error-boundary)\.tsx)|packages\/contract\/src\/(paths|web-page)\.ts)$/;

/** A chunk of the modules matching `pattern`, leaving out those of the entry chunk. */
function chunkGroup(name: string | ((id: string) => string), pattern: RegExp, debugName = String(name)) {
  return { name, debugName, test: (id: string) => pattern.test(id) && !entryModules.test(id) };
}

/**
 * Shared code in a few chunks rather than one per small module: fewer requests when a screen
 * opens, and a shorter list of what each screen preloads in the entry chunk. The data library
 * changes least, so it gets a chunk of its own that stays cached.
 */
const chunkGroups = [
  chunkGroup('data', /\/node_modules\/(swr|use-sync-external-store|dequal)\//),
  chunkGroup('intl', /\/node_modules\/(react-intl|intl-messageformat|@formatjs)\//),
  chunkGroup('shared', /\/(apps\/web\/src\/(components|hooks|lib)|packages\/contract\/src)\//),
  chunkGroup(
    (id) => `feature-${/\/src\/features\/([^/]+)\//.exec(id)![1]}`,
    /\/apps\/web\/src\/features\//,
    'features',
  ),
];

/** Shared by the plugins that write and read them. */
const firstScreen: FirstScreenStyles = { styles: [] };

export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    contractSchemasArePure(),
    catalogs(),
    reportInitialScriptSize(),
    startFirstScreenEarly(firstScreen),
    renderFirstScreenOnServer(firstScreen),
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

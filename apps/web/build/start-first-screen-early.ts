import path from 'node:path';
import { build, type HtmlTagDescriptor, type Plugin, type ResolvedConfig, type Rolldown } from 'vite';
import type { FeedScreenFiles } from '../src/early-data';
import { addWithImports, chunksOf } from './bundle-chunks.ts';
import { contractSchemasArePure } from './contract-schemas-are-pure.ts';

/** The module of the frame every screen is shown in, and that of the feed, a signed-in person's first screen. */
const frameModule = '/src/app/root.tsx';
const feedScreenModule = '/src/app/routes/home.tsx';

/** The page's first script (its `startFirstScreen`), inlined in index.html. */
const earlyDataModule = 'src/early-data.ts';

/** The element the first script goes right after, as index.html writes it. */
const CHARSET = '<meta charset="UTF-8" />';

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
 * What the first screen needs beyond what index.html loads already (the entry chunk, what Vite
 * preloads for it, and its styles): the frame's code and styles, which the page preloads, and the
 * feed screen's, which the first script preloads when the feed is what the page shows.
 */
export function firstScreenFiles(bundle: Rolldown.OutputBundle) {
  const chunks = chunksOf(bundle);
  const byModule = (module: string) =>
    [...chunks.values()].find((chunk) => chunk.facadeModuleId?.endsWith(module))!.fileName;
  const stylesOf = (fileNames: Iterable<string>) =>
    [...fileNames].flatMap((fileName) => [...(chunks.get(fileName)!.viteMetadata?.importedCss ?? [])]);
  const entry = [...chunks.values()].find((chunk) => chunk.isEntry && chunk.name === 'index')!.fileName;
  const loaded = addWithImports(chunks, entry, new Set());
  stylesOf([...loaded]).forEach((css) => loaded.add(css));
  const frame = addWithImports(chunks, byModule(frameModule), new Set());
  const feed = addWithImports(chunks, byModule(feedScreenModule), new Set());
  const frameStyles = stylesOf(frame).filter((fileName) => !loaded.has(fileName));
  const address = (fileName: string) => `/${fileName}`;
  return {
    frameScripts: [...frame].filter((fileName) => !loaded.has(fileName)).map(address),
    frameStyles: frameStyles.map(address),
    feedScreen: {
      modules: [...feed].filter((fileName) => !loaded.has(fileName) && !frame.has(fileName)).map(address),
      styles: stylesOf(feed)
        .filter((fileName) => !loaded.has(fileName) && !frameStyles.includes(fileName))
        .map(address),
    },
  };
}

/** A preload of `href` in the page's head, as a module or as a style sheet. */
function preloadTag(href: string, as: 'module' | 'style'): HtmlTagDescriptor {
  const attrs = as === 'module' ? { rel: 'modulepreload' } : { rel: 'preload', as: 'style' };
  return { tag: 'link', attrs: { ...attrs, crossorigin: true, href }, injectTo: 'head' };
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
export function startFirstScreenEarly(): Plugin {
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
        const { frameScripts, frameStyles, feedScreen } = firstScreenFiles(bundle);
        if (!html.includes(CHARSET)) throw new Error(`index.html has no ${CHARSET} to put the early-data script after`);
        // Right after the charset, before any style sheet, which a script would wait for, and before the page's files
        // take the browser's few connections to the site.
        const early = `\n    <script>${await buildEarlyDataScript(config.root, feedScreen)}</script>`;
        return {
          html: html.replace(CHARSET, () => `${CHARSET}${early}`),
          tags: [
            ...frameScripts.map((href) => preloadTag(href, 'module')),
            ...frameStyles.map((href) => preloadTag(href, 'style')),
          ],
        };
      },
    },
  };
}

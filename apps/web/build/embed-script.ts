import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin, type ResolvedConfig, type Rolldown } from 'vite';
import { contractSchemasArePure } from './contract-schemas-are-pure.ts';

/** Where the build writes the embed's file names, which the server reads (apps/server/src/modules/embed/files.ts). */
const EMBED_FILES = 'embed.json';

/** What a page framing a question loads of ours, script and style sheet, in gzip kB: the build fails past it. */
const EMBED_BUDGET_KB = 15;

/**
 * Builds the embed's script (src/embed/embed.ts) and its style sheet into hashed files of their own, sharing no chunk
 * with the app: a page that frames a question loads them and nothing the app's screens need. After the service worker
 * lists its files, so that the app's visitors do not download them.
 */
export function embedScript(): Plugin {
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

import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';
import { addWithImports, chunksOf } from './bundle-chunks.ts';
import { isFirstCatalogPart } from './catalogs.ts';
import { ENTRY_PAGE_TEMPLATE, type EntryPageTemplate } from './entry-page-template.ts';

/** The JavaScript a first visit may load before any screen's own code, in gzip kB. */
const INITIAL_SCRIPT_BUDGET_KB = 100;

const gzipKilobytes = (code: string) => gzipSync(code).length / 1000;

/**
 * Reports the gzip size of the initial JavaScript: the entry chunk and every chunk it imports
 * statically (those index.html preloads), the scripts inlined in the page, and the largest first
 * part of a catalog, the one language's texts the first screen needs. Screens load later, each on
 * its first visit.
 */
export function reportInitialScriptSize(): Plugin {
  return {
    name: 'pollscope:initial-script-size',
    apply: 'build',
    writeBundle(_options, bundle) {
      const chunks = chunksOf(bundle);
      const initial = new Set<string>();
      for (const chunk of chunks.values()) if (chunk.isEntry) addWithImports(chunks, chunk.fileName, initial);
      const template = bundle[ENTRY_PAGE_TEMPLATE];
      const { parts } = (
        template?.type === 'asset' ? JSON.parse(String(template.source)) : { parts: [] }
      ) as EntryPageTemplate;
      const inline = parts.flatMap((part) =>
        typeof part !== 'string' && part.slot === 'inline-script' ? [part.code] : [],
      );
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

import fs from 'node:fs';
import path from 'node:path';
import { parse } from '@formatjs/icu-messageformat-parser';
import type { Plugin } from 'vite';

const sourceRoot = path.resolve(import.meta.dirname, '../src');

/**
 * The modules of the screens a first visit shows: the frame, the feed and log-in (app/router.tsx
 * marks them `firstScreen`). The ids their code names, with everything it imports, make up the
 * first part of each catalog, which the frame waits for; every other screen waits for the rest.
 */
const FIRST_SCREEN_MODULES = ['app/root.tsx', 'app/routes/home.tsx', 'app/routes/login.tsx'];

const CATALOG = /\/src\/i18n\/catalogs\/[\w-]+\.json$/;
const PART = /^(.*\/catalogs\/[\w-]+\.json)\?part=(first|rest)$/;
const PART_MODULE = '\0pollscope-catalog-part:';
const IMPORTED = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;
const QUOTED_ID = /(['"`])([A-Za-z][\w-]*(?:\.[\w-]+)+)\1/g;

/** The source file a relative import names, if it is one of the app's TypeScript modules. */
function moduleAt(importer: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(importer), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`];
  return candidates.find((file) => /\.tsx?$/.test(file) && fs.existsSync(file) && fs.statSync(file).isFile()) ?? null;
}

/** The message ids (of `ids`) named by the first screens' modules and every module they import, lazily or not. */
function firstScreenIds(ids: Set<string>): Set<string> {
  const visited = new Set<string>();
  const named = new Set<string>();
  const visit = (file: string) => {
    if (visited.has(file)) return;
    visited.add(file);
    const code = fs.readFileSync(file, 'utf8');
    for (const [, , id] of code.matchAll(QUOTED_ID)) if (ids.has(id)) named.add(id);
    for (const [, specifier] of code.matchAll(IMPORTED)) {
      const imported = moduleAt(file, specifier);
      if (imported) visit(imported);
    }
  };
  FIRST_SCREEN_MODULES.forEach((module) => visit(path.join(sourceRoot, module)));
  return named;
}

/** Whether a module is the first part of a catalog, which a first visit downloads beside the initial JavaScript. */
export const isFirstCatalogPart = (moduleId: string | null) =>
  moduleId?.startsWith(PART_MODULE) === true && moduleId.endsWith(':first');

/**
 * The catalogs go into the app as FormatJS's parsed messages rather than as ICU texts, so the
 * browser formats them without the message parser, which the build leaves out (docs/i18n.md).
 * `catalogs/de.json?part=first` is the part of a catalog the first screens name, `?part=rest` the
 * others: a first visit downloads only the first (docs/performance.md).
 */
export function catalogs(): Plugin {
  const parsed = (catalog: Record<string, string>, keep: (messageId: string) => boolean) =>
    Object.fromEntries(
      Object.entries(catalog)
        .filter(([messageId]) => keep(messageId))
        .map(([messageId, text]) => [messageId, parse(text)]),
    );
  const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
  return {
    name: 'pollscope:catalogs',
    enforce: 'pre',
    // A part is a module of its own (`…/de.json:first`), which no other plugin takes for the JSON file it is made from.
    resolveId(source, importer) {
      const match = PART.exec(source);
      if (!match || !importer) return null;
      return `${PART_MODULE}${path.resolve(path.dirname(importer), match[1])}:${match[2]}`;
    },
    load(id) {
      if (id.startsWith(PART_MODULE)) {
        const separator = id.lastIndexOf(':');
        const part = id.slice(separator + 1);
        const catalog = read(id.slice(PART_MODULE.length, separator));
        const first = firstScreenIds(new Set(Object.keys(catalog)));
        return `export default ${JSON.stringify(parsed(catalog, (messageId) => first.has(messageId) === (part === 'first')))};`;
      }
      if (CATALOG.test(id)) return JSON.stringify(parsed(read(id), () => true));
      return null;
    },
  };
}

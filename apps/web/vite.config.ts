import react from '@vitejs/plugin-react';
import { createRequire } from 'node:module';
import path from 'node:path';
import fs from 'node:fs';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import ts from 'typescript';
import { defineConfig, type Plugin } from 'vite';

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
        .filter((initializer): initializer is ts.Expression => initializer !== undefined && !ts.isLiteralExpression(initializer));
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
const reactRouterDist = path.join(path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist/production');

/** The JavaScript a first visit may load before any screen's own code, in gzip kB. */
const INITIAL_SCRIPT_BUDGET_KB = 100;

/**
 * Reports the gzip size of the initial JavaScript: the entry chunk and every chunk it imports
 * statically (those index.html preloads). Screens load later, each on its first visit.
 */
function reportInitialScriptSize(): Plugin {
  return {
    name: 'pollscope:initial-script-size',
    apply: 'build',
    writeBundle(_options, bundle) {
      const chunks = new Map(Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [[output.fileName, output] as const] : [])));
      const initial = new Set<string>();
      const visit = (fileName: string) => {
        if (initial.has(fileName)) return;
        initial.add(fileName);
        chunks.get(fileName)?.imports.forEach(visit);
      };
      for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);
      const kilobytes = [...initial].reduce((total, fileName) => total + gzipSync(chunks.get(fileName)!.code).length, 0) / 1000;
      const verdict = kilobytes <= INITIAL_SCRIPT_BUDGET_KB ? 'within' : 'OVER';
      this.info(`initial JavaScript: ${kilobytes.toFixed(2)} kB gzip in ${initial.size} file(s), ${verdict} the ${INITIAL_SCRIPT_BUDGET_KB} kB budget`);
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
      const textFiles = [...Object.keys(bundle), 'index.html', 'favicon.svg'].filter((fileName) => /\.(js|css|html|svg|json)$/.test(fileName));
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

/** What the entry chunk itself needs, which must stay in it rather than add a chunk to the first load. */
const entryModules =
  /\/(apps\/web\/src\/(main\.tsx|app\/router\.tsx|config\/paths\.ts|lib\/(auth-token|prefetch|destination)\.ts|components\/ui\/loading\.tsx)|packages\/contract\/src\/paths\.ts)$/;

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
  chunkGroup('shared', /\/(apps\/web\/src\/(components|hooks|lib)|packages\/contract\/src)\//),
  chunkGroup((id) => `feature-${/\/src\/features\/([^/]+)\//.exec(id)![1]}`, /\/apps\/web\/src\/features\//, 'features'),
];

export default defineConfig(({ command }) => ({
  plugins: [react(), contractSchemasArePure(), reportInitialScriptSize(), precompressAssets()],
  resolve: {
    alias:
      command === 'build'
        ? [
            { find: /^react-router$/, replacement: path.join(reactRouterDist, 'index.mjs') },
            { find: /^react-router\/dom$/, replacement: path.join(reactRouterDist, 'dom-export.mjs') },
          ]
        : [],
  },
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
      // Only the matching modules join a group, so code the entry chunk needs stays in it.
      output: { codeSplitting: { groups: chunkGroups, includeDependenciesRecursively: false } },
    },
  },
}));

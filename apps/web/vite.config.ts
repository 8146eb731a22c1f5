import react from '@vitejs/plugin-react';
import { createRequire } from 'node:module';
import path from 'node:path';
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

export default defineConfig(({ command }) => ({
  plugins: [react(), contractSchemasArePure()],
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
    proxy: { '/api': { target: apiTarget, changeOrigin: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Every browser the app supports preloads modules natively.
    modulePreload: { polyfill: false },
  },
}));

import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/**
 * React Router's package exports point every bundler at its development build, warnings and
 * all; a production build takes the production files instead.
 */
const reactRouterDist = path.join(path.dirname(require.resolve('react-router/package.json')), 'dist/production');

/** What a build resolves differently: React Router's production files, and no message parser (catalogs.ts). */
export const productionAliases = [
  { find: /^react-router$/, replacement: path.join(reactRouterDist, 'index.mjs') },
  { find: /^react-router\/dom$/, replacement: path.join(reactRouterDist, 'dom-export.mjs') },
  {
    find: /^@formatjs\/icu-messageformat-parser$/,
    replacement: require.resolve('@formatjs/icu-messageformat-parser/no-parser.js'),
  },
];

// @ts-check
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import fs from 'node:fs';
import path from 'node:path';
import tseslint from 'typescript-eslint';
import { typeImportCycle } from './eslint-rules/type-import-cycle.js';

const root = import.meta.dirname;
const server = 'apps/server/src';
const web = 'apps/web/src';
const tsconfigs = ['packages/contract', 'apps/server', 'apps/web'].map((dir) => path.join(root, dir, 'tsconfig.json'));

/** Each folder directly in `dir`: the server's module areas, the web app's features. */
const foldersIn = (/** @type {string} */ dir) =>
  fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/**
 * The server's layers: lib/ and db/ know nothing of what is built on them, private-release/
 * (the privacy mechanism) knows nothing of the app, and a module area uses another only through
 * what that area's index.ts exports.
 */
const serverZones = [
  {
    target: [`${server}/lib`, `${server}/db`],
    from: [`${server}/modules`, `${server}/views`, `${server}/plugins`],
    message: 'lib/ and db/ are the bottom layer: pass what they need in as arguments.',
  },
  {
    target: `${server}/private-release`,
    from: `${server}/!(private-release)/**`,
    message: 'private-release/ is the mechanism alone: it imports nothing of the app.',
  },
  ...foldersIn(`${server}/modules`).map((area) => ({
    target: `${server}/modules/${area}`,
    from: `${server}/modules/!(${area})/**`,
    except: [`**/${server}/modules/*/index.ts`],
    message: 'Import another module area through its index.ts.',
  })),
];

/** The web app's features stand alone, and code flows one way: shared code → features → app. */
const webZones = [
  ...foldersIn(`${web}/features`).map((feature) => ({
    target: `${web}/features/${feature}`,
    from: `${web}/features`,
    except: [`./${feature}`],
    message: 'A feature imports no other feature: move what both use to components/, hooks/ or lib/, or compose them in app/.',
  })),
  { target: `${web}/features`, from: `${web}/app`, message: 'Features do not import the app that composes them.' },
  {
    target: [`${web}/components`, `${web}/hooks`, `${web}/lib`, `${web}/config`, `${web}/testing`],
    from: [`${web}/features`, `${web}/app`],
    message: 'Shared code imports no feature and not the app.',
  },
];

export default defineConfig(
  globalIgnores(['**/dist/', '**/bench-results/', '**/data/', '**/coverage/', '**/test-results/']),
  {
    name: 'pollscope/typescript',
    files: ['apps/server/{src,bench,scripts,test}/**/*.ts', 'apps/web/{src,e2e}/**/*.{ts,tsx}', 'packages/contract/src/**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    plugins: { 'import-x': importX, pollscope: { rules: { 'type-import-cycle': typeImportCycle } } },
    settings: {
      // Each workspace resolves its imports with its own tsconfig (the web app's bundler resolution, the server's NodeNext).
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: tsconfigs, noWarnOnMultipleProjects: true })],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      'import-x/no-cycle': 'error',
      'pollscope/type-import-cycle': ['error', { projects: tsconfigs }],
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: [...serverZones, ...webZones] }],
    },
  },
  {
    name: 'pollscope/tests',
    files: ['**/*.test.{ts,tsx}', 'apps/server/src/test/**', 'apps/server/test/**', 'apps/server/bench/**', 'apps/web/src/testing/**', 'apps/web/e2e/**'],
    rules: {
      // Tests, the code they share and the benchmark read JSON replies loosely: the test itself checks their shape.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);

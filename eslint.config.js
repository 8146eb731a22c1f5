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

// Every module area says what the rest of the app may use of it in an index.ts.
const areasWithoutIndex = foldersIn(`${server}/modules`).filter(
  (area) => !fs.existsSync(path.join(root, server, 'modules', area, 'index.ts')),
);
if (areasWithoutIndex.length > 0)
  throw new Error(
    `Give each module area an index.ts of what the rest of the app uses of it: ${areasWithoutIndex.join(', ')}`,
  );

/**
 * The server's layers (docs/architecture.md, Layers and plugins): lib/ and db/ know nothing of
 * what is built on them, private-release/ (the privacy mechanism) knows nothing of the app, changes/
 * knows nothing of what registers with it, views/ (the read pipeline) knows no module area, a module area is used only through what its index.ts
 * exports, nothing of the app imports seed/, and an external plugin imports nothing of the app.
 */
const serverZones = [
  {
    target: [`${server}/lib`, `${server}/db`],
    from: [`${server}/modules`, `${server}/views`, `${server}/plugins`],
    message: 'lib/ and db/ are the bottom layer: pass what they need in as arguments.',
  },
  {
    target: `${server}/config.ts`,
    from: `${server}/db`,
    message: 'config.ts is read by every layer, db/ included: it imports none of them.',
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
  {
    // app.ts, the composition root, alone registers each area's routes from their files.
    target: [`${server}/plugins`, `${server}/views`, `${server}/seed`],
    from: `${server}/modules/**`,
    except: [`**/${server}/modules/*/index.ts`],
    message: 'Import a module area through its index.ts.',
  },
  {
    // One direction: module areas build on the read pipeline; the memory plugin (plugins/app/memory.ts) composes both.
    target: `${server}/views`,
    from: [`${server}/modules/**`, `${server}/changes/**`, `${server}/plugins/**`],
    message:
      'views/ (the read pipeline) imports no module area, change or plugin: the module areas use it, not the other way.',
  },
  {
    target: `${server}/modules`,
    from: `${server}/plugins/**`,
    message:
      'A module area imports no plugin: plugins/app/ composes the areas (what a request carries is lib/request-session.ts).',
  },
  {
    // What a change does besides its own rows is registered with it by the module areas (changes/reactions.ts).
    target: `${server}/changes`,
    from: [`${server}/modules`, `${server}/plugins`, `${server}/views`],
    message: 'changes/ is a base layer: it imports no module area, plugin or view; they register with it instead.',
  },
  {
    target: [`${server}/modules`, `${server}/views`, `${server}/changes`, `${server}/plugins`],
    from: `${server}/seed`,
    message:
      'seed/ fills a database for a start or a demo: the app imports nothing of it (what both need belongs in db/ or a module).',
  },
  {
    target: `${server}/plugins/external`,
    from: [`${server}/modules`, `${server}/views`, `${server}/changes`, `${server}/plugins/app`],
    message: 'An external plugin sets up a library for the app: it imports nothing of the app, only its config.',
  },
];

/**
 * Every Fastify plugin lives in plugins/external/ (a library set up for the app) or plugins/app/
 * (the app's own), wrapped with fastify-plugin and naming what it decorates and its dependencies.
 */
const pluginsOnlyInPluginFolders = {
  name: 'pollscope/plugins-in-their-folders',
  files: [`${server}/**/*.ts`],
  ignores: [`${server}/plugins/{external,app}/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: [
          {
            name: 'fastify-plugin',
            message:
              'A plugin lives in src/plugins/external/ (a library set up for the app) or src/plugins/app/ (the app’s own).',
          },
        ],
      },
    ],
  },
};

/** The web app's features stand alone, and code flows one way: shared code → features → app. */
const webZones = [
  ...foldersIn(`${web}/features`).map((feature) => ({
    target: `${web}/features/${feature}`,
    from: `${web}/features`,
    except: [`./${feature}`],
    message:
      'A feature imports no other feature: move what both use to components/, hooks/ or lib/, or compose them in app/.',
  })),
  { target: `${web}/features`, from: `${web}/app`, message: 'Features do not import the app that composes them.' },
  {
    target: [`${web}/components`, `${web}/hooks`, `${web}/lib`, `${web}/config`, `${web}/i18n`, `${web}/testing`],
    from: [`${web}/features`, `${web}/app`],
    message: 'Shared code imports no feature and not the app.',
  },
];

export default defineConfig(
  globalIgnores(['**/dist/', '**/bench-results/', '**/data/', '**/coverage/', '**/test-results/']),
  {
    name: 'pollscope/typescript',
    files: [
      'apps/server/{src,bench,scripts,test}/**/*.ts',
      'apps/web/{src,build,e2e,scripts}/**/*.{ts,tsx}',
      'packages/contract/src/**/*.ts',
    ],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    plugins: { 'import-x': importX, pollscope: { rules: { 'type-import-cycle': typeImportCycle } } },
    settings: {
      // Each workspace resolves its imports with its own tsconfig (the web app's bundler resolution, the server's NodeNext).
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: tsconfigs, noWarnOnMultipleProjects: true }),
      ],
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
  pluginsOnlyInPluginFolders,
  {
    // A function a reader cannot hold in view is split into named steps. Tests, the benchmark and the migrations (flat
    // lists of tables and indexes, written once and never changed) are left out.
    name: 'pollscope/short-functions',
    files: ['apps/server/src/**/*.ts', 'apps/web/{src,build}/**/*.{ts,tsx}', 'packages/contract/src/**/*.ts'],
    ignores: [
      '**/*.test.{ts,tsx}',
      'apps/server/src/test/**',
      'apps/server/src/db/migrations/**',
      'apps/web/src/testing/**',
    ],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    name: 'pollscope/tests',
    files: [
      '**/*.test.{ts,tsx}',
      'apps/server/src/test/**',
      'apps/server/test/**',
      'apps/server/bench/**',
      'apps/web/src/testing/**',
      'apps/web/e2e/**',
    ],
    rules: {
      // Tests, the code they share and the benchmark read JSON replies loosely: the test itself checks their shape.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);

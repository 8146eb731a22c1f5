// @ts-check
/**
 * `import-x/no-cycle` follows only imports that exist at run time: a cycle closed by an
 * `import type` passes it, though it ties the two modules as tightly. This rule reports such a
 * type-only import when the module it imports leads back, through any imports, to the importer.
 * The import graph of each TypeScript project is read once per ESLint process (an editor's
 * ESLint server sees other files' changes after a restart).
 */
import path from 'node:path';
import ts from 'typescript';

/** @typedef {Map<string, Set<string>>} Graph each file of a project → the project's files it imports */

/** @type {Map<string, { graph: Graph, options: ts.CompilerOptions }>} */
const projects = new Map();

/** @param {string} from @param {string} specifier @param {ts.CompilerOptions} options */
function resolveImport(from, specifier, options) {
  const resolved = ts.resolveModuleName(specifier, from, options, ts.sys).resolvedModule;
  return resolved && !resolved.isExternalLibraryImport ? path.resolve(resolved.resolvedFileName) : null;
}

/** @param {string} tsconfig */
function projectOf(tsconfig) {
  let project = projects.get(tsconfig);
  if (!project) {
    const parsed = ts.getParsedCommandLineOfConfigFile(
      tsconfig,
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    );
    if (!parsed) throw new Error(`Cannot read ${tsconfig}`);
    /** @type {Graph} */
    const graph = new Map(parsed.fileNames.map((file) => [path.resolve(file), new Set()]));
    for (const [file, imports] of graph) {
      const { importedFiles } = ts.preProcessFile(ts.sys.readFile(file) ?? '', true, true);
      for (const { fileName } of importedFiles) {
        const target = resolveImport(file, fileName, parsed.options);
        if (target && graph.has(target)) imports.add(target);
      }
    }
    project = { graph, options: parsed.options };
    projects.set(tsconfig, project);
  }
  return project;
}

/** The shortest chain of imports from `start` to `goal`, both included; null if there is none. */
function chain(/** @type {Graph} */ graph, /** @type {string} */ start, /** @type {string} */ goal) {
  /** @type {Map<string, string | null>} */
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (file === goal) {
      const files = [];
      for (let at = /** @type {string | null | undefined} */ (file); at; at = cameFrom.get(at)) files.unshift(at);
      return files;
    }
    for (const next of graph.get(file) ?? []) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return null;
}

/** @param {any} node an import or export declaration with a source */
function isTypeOnly(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return true;
  const specifiers = node.specifiers ?? [];
  return (
    specifiers.length > 0 &&
    specifiers.every((/** @type {any} */ s) => s.importKind === 'type' || s.exportKind === 'type')
  );
}

/** @type {import('eslint').Rule.RuleModule} */
export const typeImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid a type-only import that closes an import cycle.' },
    schema: [
      {
        type: 'object',
        properties: { projects: { type: 'array', items: { type: 'string' } } },
        additionalProperties: false,
      },
    ],
    messages: {
      cycle: 'Type import closes an import cycle: {{route}}. Move the shared type down to the module both can import.',
    },
  },
  create(context) {
    const file = path.resolve(context.physicalFilename);
    /** @type {string[]} */
    const tsconfigs = context.options[0]?.projects ?? [];
    const project = tsconfigs.map(projectOf).find(({ graph }) => graph.has(file));
    if (!project) return {};

    /** @param {any} node */
    function check(node) {
      if (!node.source || !isTypeOnly(node)) return;
      const target = resolveImport(file, node.source.value, project.options);
      const back = target && chain(project.graph, target, file);
      if (back)
        context.report({
          node,
          messageId: 'cycle',
          data: { route: [file, ...back].map((at) => path.relative(context.cwd, at)).join(' → ') },
        });
    }
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

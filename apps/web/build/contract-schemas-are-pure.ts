import ts from 'typescript';
import type { Plugin } from 'vite';

/**
 * The contract package defines its zod schemas as top-level calls, which a bundler must assume
 * have side effects, so every page would carry all of zod although the app uses only the
 * contract's paths, display ids and limits at run time. Marking each top-level initializer of
 * the contract pure lets the unused schemas, and zod with them, drop out of the build.
 */
export function contractSchemasArePure(): Plugin {
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
        .filter(
          (initializer): initializer is ts.Expression =>
            initializer !== undefined && !ts.isLiteralExpression(initializer),
        );
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

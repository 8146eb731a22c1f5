import type { Rolldown } from 'vite';

/** The code chunks of a bundle, by their file names. */
export function chunksOf(bundle: Rolldown.OutputBundle): Map<string, Rolldown.OutputChunk> {
  return new Map(
    Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [[output.fileName, output] as const] : [])),
  );
}

/** Adds `fileName` to `into`, with every chunk it imports statically, directly or through others. */
export function addWithImports(chunks: ReadonlyMap<string, Rolldown.OutputChunk>, fileName: string, into: Set<string>) {
  if (into.has(fileName)) return into;
  into.add(fileName);
  for (const imported of chunks.get(fileName)?.imports ?? []) addWithImports(chunks, imported, into);
  return into;
}

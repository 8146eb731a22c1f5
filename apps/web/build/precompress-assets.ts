import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';
import { isServersOwn } from './entry-page-template.ts';

/**
 * Writes a Brotli and a gzip copy beside each text file of the build, which the server sends to
 * browsers that accept them: compressed once at build time rather than on every request.
 */
export function precompressAssets(): Plugin {
  return {
    name: 'pollscope:precompress-assets',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir!;
      const textFiles = [...Object.keys(bundle), 'favicon.svg', 'manifest.webmanifest'].filter(
        (fileName) => /\.(js|css|html|svg|json|webmanifest)$/.test(fileName) && !isServersOwn(fileName),
      );
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

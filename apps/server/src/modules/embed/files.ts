import fs from 'node:fs';
import path from 'node:path';

/**
 * The embed's script and style sheet as the web app's build named them (hashed, under /assets/): its build writes
 * their names into this file of its folder (apps/web/build/embed-script.ts).
 */
export const EMBED_FILES = 'embed.json';

export interface EmbedFiles {
  script: string;
  style: string;
}

/**
 * Reads the names once, at the first page: null where the web app is not built (the API's tests), whose page then
 * carries no script.
 */
export function embedFilesReader(distDir: string): () => EmbedFiles | null {
  let files: EmbedFiles | null | undefined;
  return () => {
    if (files !== undefined) return files;
    const file = path.join(distDir, EMBED_FILES);
    files = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as EmbedFiles) : null;
    return files;
  };
}

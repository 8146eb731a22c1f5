import fs from 'node:fs';
import path from 'node:path';
import { isPostgresUrl, loadConfig } from '../config.js';

/**
 * The database a maintenance command works on: the one named on the command line, else the
 * server's DATABASE_URL. A path given on the command line is read from where the command was
 * typed, also when npm runs it from the server's folder.
 */
export function targetDatabase(argument: string | undefined): string {
  const url = argument
    ? isPostgresUrl(argument)
      ? argument
      : path.resolve(process.env.INIT_CWD ?? process.cwd(), argument)
    : loadConfig().databaseUrl;
  if (!isPostgresUrl(url) && !fs.existsSync(url)) throw new Error(`No database at ${url}`);
  return url;
}

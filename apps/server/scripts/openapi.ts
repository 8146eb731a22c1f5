/**
 * Writes the API's OpenAPI document, as the server serves it at /api/docs/json, to a file
 * (`dist/openapi.json`, or the path given) for `npm run lint:openapi`. The app is built on a
 * throwaway in-memory database and never listens.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest, openDatabase } from '../src/db/index.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outFile = path.resolve(process.argv[2] ?? path.join(serverDir, 'dist/openapi.json'));

const config = { ...loadConfig({}), databaseUrl: ':memory:', seedDemo: false, rateLimits: false };
const database = openDatabase(config.databaseUrl);
try {
  await migrateToLatest(database);
  const app = await buildApp({ config, database });
  try {
    await app.ready();
    fs.mkdirSync(path.dirname(outFile), { recursive: true });
    fs.writeFileSync(outFile, `${JSON.stringify(app.swagger(), null, 2)}\n`);
  } finally {
    await app.close();
  }
} finally {
  await database.close();
}
console.log(`OpenAPI document written to ${path.relative(process.cwd(), outFile)}`);

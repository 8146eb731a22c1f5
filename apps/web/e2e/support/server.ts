import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer as startServerProcess } from '../../../server/src/test/server-process';

export const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * Where the browser tests build the app and their servers serve it from: apps/web/dist, or
 * E2E_WEB_DIST (from apps/web), so that runs side by side in one working tree keep their own build.
 */
export const testsWebDist = path.resolve(webDir, process.env.E2E_WEB_DIST || 'dist');

export interface ServerOptions {
  /** Whether the server seeds the demo community on its fresh database (SEED_DEMO). */
  seedDemo?: boolean;
  startupTimeoutMs?: number;
  /** The built web app to serve; unless told, the tests' build (testsWebDist). */
  webDist?: string;
  /** More settings for this server, such as ADMIN_EMAILS or the SMTP_URL of a test's mail server. */
  env?: Record<string, string>;
}

export interface RunningServer {
  /** Where the app and its API answer, and where the links it sends point (PUBLIC_URL). */
  baseUrl: string;
  /** Stops the server and deletes its data. */
  stop: () => Promise<void>;
}

/**
 * The real server, serving the built app (apps/web/dist), on a fresh SQLite database in a
 * directory of its own, answering once it has migrated and seeded. It listens on any free port and
 * says which; without PUBLIC_URL, its links point there.
 */
export async function startServer({
  seedDemo = false,
  startupTimeoutMs = 90_000,
  webDist = testsWebDist,
  env = {},
}: ServerOptions = {}): Promise<RunningServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pollscope-e2e-'));
  const removeData = () => fs.rmSync(dataDir, { recursive: true, force: true });
  const settings = {
    SEED_DEMO: seedDemo ? '1' : '0',
    WEB_DIST: webDist,
    // Without an SMTP_URL of a test's mail server, the mail it sends is written here.
    MAIL_DIR: path.join(dataDir, 'mail'),
    ...env,
  };
  try {
    const server = await startServerProcess(path.join(dataDir, 'e2e.db'), settings, [], 'source', { startupTimeoutMs });
    return {
      baseUrl: server.baseUrl,
      async stop() {
        await server.stop();
        removeData();
      },
    };
  } catch (error) {
    removeData();
    throw error;
  }
}

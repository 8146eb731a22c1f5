import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freeFixedPort } from '../../../server/src/test/ports';

export const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const repoDir = path.resolve(webDir, '../..');
const serverEntry = path.join(repoDir, 'apps/server/src/server.ts');
/**
 * Where the browser tests build the app and their servers serve it from: apps/web/dist, or
 * E2E_WEB_DIST (from apps/web), so that runs side by side in one working tree keep their own build.
 */
export const testsWebDist = path.resolve(webDir, process.env.E2E_WEB_DIST || 'dist');

export async function waitUntilServing(baseUrl: string, server: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) break;
    try {
      const response = await fetch(`${baseUrl}/api/polls/categories/`);
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const log = fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
  throw new Error(`The server did not answer at ${baseUrl} (exit code ${server.exitCode}). Last log lines:\n${log}`);
}

export interface ServerOptions {
  /** Whether the server seeds the demo community on its fresh database (SEED_DEMO). */
  seedDemo?: boolean;
  startupTimeoutMs?: number;
  /** The built web app to serve; unless told, the tests' build (testsWebDist). */
  webDist?: string;
  /** More settings for this server, such as ADMIN_EMAILS. */
  env?: Record<string, string>;
  /** The port to listen on, such as one a server just stopped had (a new deployment at the same address); a free one unless told. */
  port?: number;
}

export interface RunningServer {
  /** Where the app and its API answer. */
  baseUrl: string;
  /** The port the server sends mail to; nothing listens there until a test does. */
  smtpPort: number;
  /** Stops the server and deletes its data. */
  stop: () => Promise<void>;
}

/**
 * The real server, serving the built app (apps/web/dist), on a fresh SQLite database in a
 * directory of its own and free ports, answering once it has migrated and seeded.
 */
export async function startServer({ seedDemo = false, startupTimeoutMs = 90_000, webDist = testsWebDist, env = {}, port: wantedPort }: ServerOptions = {}): Promise<RunningServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pollscope-e2e-'));
  const logFile = path.join(dataDir, 'server.log');
  const log = fs.openSync(logFile, 'a');
  // Both told in advance: the server's own address is its PUBLIC_URL, in the links it sends, and a test's mail server listens on the other later.
  const port = wantedPort ?? (await freeFixedPort());
  const smtpPort = await freeFixedPort();
  const server = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    cwd: path.join(repoDir, 'apps/server'),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: path.join(dataDir, 'e2e.db'),
      SEED_DEMO: seedDemo ? '1' : '0',
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
      WEB_DIST: webDist,
      // Nothing listens there until a test that reads mail does: the server keeps what it sends meanwhile and tries again later.
      SMTP_URL: `smtp://pollscope:secret@127.0.0.1:${smtpPort}`,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
    stdio: ['ignore', log, log],
  });

  async function stop(): Promise<void> {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    fs.closeSync(log);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitUntilServing(baseUrl, server, logFile, startupTimeoutMs);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, smtpPort, stop };
}

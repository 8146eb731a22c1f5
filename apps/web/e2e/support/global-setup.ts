import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_PATH, hasChromium } from './chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the app and its API answer; empty when the browser tests are skipped. */
    baseUrl: string;
    /** The port the server sends mail to: a test that reads mail listens there with a test mail server (apps/server/src/test/mail-server.ts). */
    smtpPort: number;
  }
}

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const repoDir = path.resolve(webDir, '../..');
const serverEntry = path.join(repoDir, 'apps/server/src/server.ts');
const STARTUP_TIMEOUT_MS = 90_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function waitUntilServing(baseUrl: string, server: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
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

/** Under CI the browser tests must run: a machine that cannot run them fails rather than skips. */
function browserTestsRequired(): boolean {
  const ci = process.env.CI ?? '';
  return ci !== '' && ci !== 'false' && ci !== '0';
}

function announceSkip(why: string): void {
  const line = '='.repeat(72);
  console.error(`\n${line}\nSKIPPED browser tests: ${why}\n${line}\n`);
}

export default async function setup(project: TestProject) {
  if (!hasChromium()) {
    const why = `chromium not found at ${CHROMIUM_PATH} (on Debian: apt-get install -y chromium)`;
    if (browserTestsRequired()) throw new Error(`The browser tests must run under CI, but cannot: ${why}`);
    announceSkip(why);
    project.provide('baseUrl', '');
    project.provide('smtpPort', 0);
    // Said again once the run is over, where it is not lost among the other output.
    return () => announceSkip(why);
  }

  // A separate process, so the build is the production one whatever mode the test runner set.
  const vite = path.join(path.dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin/vite.js');
  execFileSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: webDir, env: { ...process.env, NODE_ENV: 'production' }, stdio: 'inherit' });

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pollscope-e2e-'));
  const logFile = path.join(dataDir, 'server.log');
  const log = fs.openSync(logFile, 'a');
  const port = await freePort();
  const smtpPort = await freePort();
  const server = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    cwd: path.join(repoDir, 'apps/server'),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: path.join(dataDir, 'e2e.db'),
      SEED_DEMO: '0',
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(webDir, 'dist'),
      // Nothing listens there until a test that reads mail does: the server keeps what it sends meanwhile and tries again later.
      SMTP_URL: `smtp://pollscope:secret@127.0.0.1:${smtpPort}`,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
    stdio: ['ignore', log, log],
  });

  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilServing(baseUrl, server, logFile);
  project.provide('baseUrl', baseUrl);
  project.provide('smtpPort', smtpPort);

  return async () => {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    fs.closeSync(log);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

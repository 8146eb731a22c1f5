import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { freeFixedPort } from './ports.js';
import type { StoppableService } from './server-process.js';

/** A Redis of a test's own; stopped, its keys are gone (it keeps nothing on disk). */
export type RedisServer = StoppableService;

/** Starts `redis-server` on a free port of 127.0.0.1, keeping nothing on disk. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freeFixedPort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  const start = async () => {
    if (child) return;
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const failed = new Promise<never>((_resolve, reject) => {
      started.once('error', (error) => reject(new Error(`redis-server could not start: ${error.message}`)));
      started.once('exit', (code) => reject(new Error(`redis-server stopped at start (exit code ${code})`)));
    });
    // Only a failure while starting matters here; stopping it later ends it too.
    failed.catch(() => {});
    child = started;
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => {});
    try {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const answered = await Promise.race([
          probe
            .connect()
            .then(() => probe.ping())
            .then(
              () => true,
              () => false,
            ),
          failed,
        ]);
        if (answered) return;
        if (Date.now() > deadline) throw new Error('redis-server did not answer in 10 s');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      probe.disconnect();
    }
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return { url, start, stop, destroy: stop };
}

import { api, registerBodySchema, tokenResponseSchema } from '@pollscope/contract';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openEventStream, type EventStream } from '../../test/event-stream.js';
import { openConnection, type RawConnection } from '../../test/raw-connection.js';
import { runCommand, serverClient, startServer, type ServerProcess } from '../../test/server-process.js';
import { metricValue } from '../../test/metrics-text.js';

/**
 * The usual limit of 1,024 open files (systemd's soft default). Not scaled down: loading its modules, the server has
 * some 250 files open at once before it listens.
 */
const FILE_LIMIT = 1024;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pollscope-file-limit-'));
let server: ServerProcess | undefined;
const streams: EventStream[] = [];
const connections: RawConnection[] = [];
afterAll(async () => {
  for (const stream of streams) stream.close();
  for (const connection of connections) connection.close();
  await server?.stop('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a server at its open-file limit', () => {
  it(
    'survives streams and half-sent requests past the limit, answers its kept connections, and takes new ones once they close',
    { timeout: 120_000 },
    async () => {
      // Built, as `npm start` runs it, rather than through the TypeScript loader, which opens its own files too.
      const built = await runCommand('scripts/build.ts', []);
      expect(built.code, built.stderr).toBe(0);
      // MAX_CONNECTIONS left to its default, which the limit sets; the heap bound left on, so that its sampling runs.
      server = await startServer(path.join(dir, 'test.db'), {}, [], 'build', { fileLimit: FILE_LIMIT });
      const { baseUrl } = server;
      const body = {
        firstName: 'Streamer',
        birthDate: '1990-06-15',
        gender: 'F' as const,
        livingIn: 840,
        email: 'streamer@example.com',
        password: 'correct horse',
      };
      const { token } = await serverClient(baseUrl).post(api.register, registerBodySchema, body, tokenResponseSchema);
      // A load balancer's connection, opened before the flood and kept alive.
      const kept = await openConnection(baseUrl);
      connections.push(kept);
      expect((await kept.get(api.health)).status).toBe(200);

      // One person's 30 streams, of which the instance keeps 20, then half-sent requests: more connections than the
      // process may open files.
      for (let index = 0; index < 30; index += 1)
        streams.push(await openEventStream(`${baseUrl}${api.notificationsLive}`, token));
      expect(streams.map((stream) => stream.status)).toEqual(streams.map(() => 200));
      const flood = await Promise.all(Array.from({ length: FILE_LIMIT + 50 }, () => openConnection(baseUrl)));
      connections.push(...flood);
      for (const connection of flood) connection.sendHalf(api.health);

      // Past the bound a new connection is closed unanswered; the kept one is answered, metrics too.
      const refused = await openConnection(baseUrl);
      refused.sendHalf(api.health);
      expect(await refused.closed).toBe('');
      expect((await kept.get(api.health)).status).toBe(200);
      expect((await kept.get(api.ready)).status).toBe(200);
      const metrics = (await kept.get('/metrics')).body;
      expect(metricValue(metrics, 'pollscope_connections_refused_total')).toBeGreaterThan(0);
      expect(metricValue(metrics, 'pollscope_live_unread_streams')).toBe(20);
      expect(metricValue(metrics, 'pollscope_connections_open')).toBeLessThan(FILE_LIMIT - 100);
      expect(server.child.exitCode).toBeNull();

      for (const connection of flood) connection.close();
      for (const stream of streams) stream.close();
      // The instance hears of the closes in a later turn: a new connection is refused until it has.
      let answered: number | null = null;
      while (answered === null) {
        const fresh = await openConnection(baseUrl);
        connections.push(fresh);
        answered = await fresh.get(api.health).then(
          (answer) => answer.status,
          () => null,
        );
      }
      expect(answered).toBe(200);
      expect(server.child.exitCode).toBeNull();
      expect(server.output()).not.toContain('EMFILE');
    },
  );
});

import { api, errorBodySchema } from '@pollscope/contract';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { createTestDatabase, type TestDatabase } from '../../test/helper.js';
import { createCommunity, startServer, type ServerProcess } from '../../test/server-process.js';
import { refusedBodyBound } from '../../lib/refused-body.js';

let testDatabase: TestDatabase;
let server: ServerProcess;
let token: string;
beforeAll(async () => {
  testDatabase = await createTestDatabase();
  server = await startServer(testDatabase.url);
  ({ authorToken: token } = await createCommunity(server.baseUrl, { voters: 0, questions: 0 }));
});
afterAll(async () => {
  await server?.stop();
  await testDatabase.drop();
});

const TWO_MB = 2 * 1024 * 1024;
const TOO_LARGE = { message: 'Request body too large' };

/** A question whose title alone is `size` bytes: far over BODY_LIMIT's default 64 KB. */
const questionOf = (size: number) => JSON.stringify({ type: 'MC', question: 'x'.repeat(size), choices: ['a', 'b'] });

/** Its status and its body as the contract's error body, or how the call failed. */
async function post(body: BodyInit): Promise<{ status: number; body: unknown } | string> {
  try {
    // Node's fetch sends a stream only when told `duplex: 'half'`, which the DOM's RequestInit does not name.
    const init: RequestInit & { duplex: 'half' } = {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Token ${token}` },
      body,
      duplex: 'half',
    };
    const response = await fetch(`${server.baseUrl}${api.create}`, init);
    return { status: response.status, body: errorBodySchema.strict().parse(await response.json()) };
  } catch (error) {
    return `failed: ${String((error as Error).cause ?? error)}`;
  }
}

/** `size` bytes sent as fast as the connection takes them, in chunks of 64 KB: a body of unknown length. */
function chunkedBody(size: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(64 * 1024).fill(0x78);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

interface RawExchange {
  /** Each whole answer read, in order. */
  answers: { status: number; body: string }[];
  /** Bytes of the body written before the connection closed. */
  sent: number;
  /** The error that ended the connection, if any (EPIPE, ECONNRESET). */
  error: string | null;
}

/**
 * Posts `size` bytes of body on a connection of its own, written as fast as the socket takes them (with a
 * content-length, or chunked), reading whatever the server answers meanwhile; then, if the whole body went, asks for
 * `/api/health` on the same connection. Resolves once the connection has closed.
 */
function rawPost(size: number, chunked: boolean): Promise<RawExchange> {
  const { hostname, port } = new URL(server.baseUrl);
  const socket = net.connect({ host: hostname, port: Number(port) });
  const exchange: RawExchange = { answers: [], sent: 0, error: null };
  let received = Buffer.alloc(0);
  socket.on('data', (data: Buffer) => {
    received = Buffer.concat([received, data]);
    for (;;) {
      const headEnd = received.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = received.subarray(0, headEnd).toString('latin1');
      const end = headEnd + 4 + Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (received.length < end) return;
      exchange.answers.push({
        status: Number(head.split(' ', 2)[1]),
        body: received.subarray(headEnd + 4, end).toString(),
      });
      received = received.subarray(end);
      if (exchange.answers.length === 2) socket.end();
    }
  });
  socket.on('error', (error: NodeJS.ErrnoException) => (exchange.error = error.code ?? error.message));
  socket.write(
    `POST ${api.create} HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\n` +
      `authorization: Token ${token}\r\n${chunked ? 'transfer-encoding: chunked' : `content-length: ${size}`}\r\n\r\n`,
  );
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const write = () => {
    while (exchange.sent < size) {
      if (socket.destroyed) return;
      exchange.sent += chunk.length;
      const framed = chunked
        ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
        : chunk;
      if (!socket.write(framed)) return void socket.once('drain', write);
    }
    socket.write(`${chunked ? '0\r\n\r\n' : ''}GET ${api.health} HTTP/1.1\r\nhost: ${hostname}\r\n\r\n`);
  };
  write();
  return new Promise((resolve) => socket.once('close', () => resolve(exchange)));
}

describe('a body over BODY_LIMIT', () => {
  it('is answered 413 with the error body, to twenty of 2 MB sent at once with fetch', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(questionOf(TWO_MB))));
    expect(answers).toEqual(Array(20).fill({ status: 413, body: TOO_LARGE }));
  });

  it('is answered 413 sent chunked, without a content-length', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(chunkedBody(TWO_MB))));
    expect(answers).toEqual(Array(20).fill({ status: 413, body: TOO_LARGE }));
  });

  it('is read to its end after the 413, and the connection answers the next request', async () => {
    for (const chunked of [false, true]) {
      const exchanges = await Promise.all(Array.from({ length: 20 }, () => rawPost(TWO_MB, chunked)));
      for (const exchange of exchanges) {
        expect(exchange, `chunked: ${chunked}`).toMatchObject({ sent: TWO_MB, error: null });
        expect(exchange.answers.map(({ status }) => status)).toEqual([413, 200]);
        expect(JSON.parse(exchange.answers[0].body)).toEqual(TOO_LARGE);
      }
    }
  });

  it('stops being read past its bound, and its connection is cut once the 413 could be read', async () => {
    const bound = refusedBodyBound(loadConfig({}).bodyLimit);
    for (const chunked of [false, true]) {
      const exchange = await rawPost(4 * bound, chunked);
      expect(exchange.answers, `chunked: ${chunked}`).toEqual([{ status: 413, body: JSON.stringify(TOO_LARGE) }]);
      expect(exchange.sent).toBeLessThan(4 * bound);
      expect(exchange.error).toMatch(/^(EPIPE|ECONNRESET)$/);
    }
  });
});

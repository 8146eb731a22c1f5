import type { FastifyReply, FastifyRequest } from 'fastify';
import { PassThrough } from 'node:stream';

/** How long a client waits before reconnecting a stream that ended (an instance stopping, a network cut). */
const RECONNECT_MS = 3000;

/**
 * Events a client has not read yet, in bytes, past which its stream is closed: every event holds
 * the whole state, so the client loses nothing by reconnecting, and a stalled one holds no memory.
 */
const MAX_UNREAD_BYTES = 256 * 1024;

export function wantsEventStream(request: FastifyRequest): boolean {
  return String(request.headers.accept ?? '').includes('text/event-stream');
}

/** What a stream's source sends with: an event of `name` with `data` as JSON, or the end. */
export interface EventSink {
  send(name: string, data: unknown): void;
  end(): void;
}

/**
 * Replies with a stream of server-sent events, and a comment line every `heartbeatSeconds` while
 * idle so that proxies keep it open. `open` starts what sends its events and returns what stops
 * it, called once the stream closes: the client went away (Fastify then destroys the stream) or
 * the instance stops.
 */
export function replyWithEvents(reply: FastifyReply, heartbeatSeconds: number, open: (sink: EventSink) => () => void): FastifyReply {
  const stream = new PassThrough();
  const write = (text: string) => {
    if (stream.writableLength > MAX_UNREAD_BYTES) stream.destroy();
    else stream.write(text);
  };
  write(`retry: ${RECONNECT_MS}\n\n`);
  const heartbeat = setInterval(() => write(': still here\n\n'), heartbeatSeconds * 1000);
  const stop = open({ send: (name, data) => write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`), end: () => stream.end() });
  stream.once('close', () => {
    clearInterval(heartbeat);
    stop();
  });
  return (
    reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-cache, no-transform')
      // Proxies that buffer responses (nginx) would hold the events back.
      .header('x-accel-buffering', 'no')
      .send(stream)
  );
}

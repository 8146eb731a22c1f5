import type { FastifyReply, FastifyRequest } from 'fastify';
import { PassThrough } from 'node:stream';
import { hashToken } from '../auth/index.js';

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
 * Who opened a stream: a signed-in person, by id, or a visitor without a token (the embed's live count), by client
 * address.
 */
export type StreamOwner = number | `visitor:${string}`;

/** A request's owner for a stream: its signed-in person, else its client address. */
export const streamOwnerOf = (request: FastifyRequest): StreamOwner => request.viewerId ?? `visitor:${request.ip}`;

/**
 * The streams of server-sent events open on this instance, live results and unread counts alike,
 * by the person who opened them and the session they opened them with: a session that ends ends
 * its streams, and past `perPerson` (0: no bound) opening one more ends that person's oldest, so
 * that one token cannot hold an unbounded number of connections and timers. A visitor's streams
 * are bound alike by their client address.
 */
export class EventStreams {
  /**
   * Each person's streams, oldest first (a Map iterates in the order its keys were added), as what
   * ends each, with the hash of the session's token it was opened with.
   */
  private readonly byPerson = new Map<StreamOwner, Map<() => void, string | null>>();

  constructor(
    private readonly heartbeatSeconds: number,
    private readonly perPerson: number,
  ) {}

  /**
   * Replies with a stream of server-sent events, and a comment line every `heartbeatSeconds` while
   * idle so that proxies keep it open. `open` starts what sends its events and returns what stops
   * it, called once however the stream ends: the client went away (Fastify then destroys the
   * stream), the response failed, the instance stops, its session ended, what it sends ended it
   * (`sink.end`), or the person opened one too many. A HEAD request gets the headers alone and
   * opens nothing.
   */
  reply(
    request: FastifyRequest,
    reply: FastifyReply,
    personId: StreamOwner,
    open: (sink: EventSink) => () => void,
  ): FastifyReply {
    reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      // What a signed-in person is sent is theirs alone: no cache keeps it (no-store), and no proxy rewrites it.
      .header('cache-control', 'no-store, no-transform')
      // Proxies that buffer responses (nginx) would hold the events back.
      .header('x-accel-buffering', 'no');
    // Fastify answers HEAD by draining the body it is given, and a stream never ends by itself:
    // it stayed registered, with its heartbeat, for as long as the process ran.
    if (request.method === 'HEAD') return reply.send();

    const stream = new PassThrough();
    const write = (text: string) => {
      if (stream.writableLength > MAX_UNREAD_BYTES) stream.destroy();
      else stream.write(text);
    };
    write(`retry: ${RECONNECT_MS}\n\n`);
    // What sends ends the stream as the instance does, so that it stops at once and sends nothing more.
    const stop = open({
      send: (name, data) => write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`),
      end: () => endEarly(),
    });
    const heartbeat = setInterval(() => write(': still here\n\n'), this.heartbeatSeconds * 1000);
    let closed = false;
    const cleanUp = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      stop();
      this.forget(personId, endEarly);
    };
    const endEarly = () => {
      stream.end();
      cleanUp();
    };
    // The stream closes when the response it is piped to does; the response alone closes when
    // the stream was never piped to it (a hook failed on the way).
    stream.once('close', cleanUp);
    reply.raw.once('close', cleanUp);
    this.add(personId, request.token === null ? null : hashToken(request.token), endEarly);
    return reply.send(stream);
  }

  /** The session of the token's hash was signed out: its streams end. */
  sessionEnded(personId: number, tokenHash: string): void {
    this.endWhere(personId, (opened) => opened === tokenHash);
  }

  /**
   * Every session of the person but the one of `keptTokenHash` ended (a new password), or every
   * one (null: a suspension, a deleted account): their streams end.
   */
  sessionsEnded(personId: number, keptTokenHash: string | null): void {
    this.endWhere(personId, (opened) => keptTokenHash === null || opened !== keptTokenHash);
  }

  private endWhere(personId: number, ends: (tokenHash: string | null) => boolean): void {
    // Ending one removes it from the map (forget), which a Map allows while it is iterated.
    for (const [endEarly, tokenHash] of this.byPerson.get(personId) ?? []) if (ends(tokenHash)) endEarly();
  }

  private add(personId: StreamOwner, tokenHash: string | null, endEarly: () => void): void {
    let streams = this.byPerson.get(personId);
    if (!streams) this.byPerson.set(personId, (streams = new Map()));
    streams.set(endEarly, tokenHash);
    if (this.perPerson === 0) return;
    // Ending one removes it from the map (forget), as above.
    for (const oldest of streams.keys()) {
      if (streams.size <= this.perPerson) break;
      oldest();
    }
  }

  private forget(personId: StreamOwner, endEarly: () => void): void {
    const streams = this.byPerson.get(personId);
    if (streams?.delete(endEarly) && streams.size === 0) this.byPerson.delete(personId);
  }
}

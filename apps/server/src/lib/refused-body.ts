import type { FastifyReply, FastifyRequest } from 'fastify';

/** A refused body is read and dropped for this long at most after its 413, as nginx's lingering close does. */
const REFUSED_BODY_SECONDS = 30;
/** Once reading stops, the client has this long to read the 413 before its connection is cut. */
const CUT_OFF_SECONDS = 2;

/** The most of a refused body read and dropped after its 413. */
export function refusedBodyBound(bodyLimit: number): number {
  return Math.max(4 * bodyLimit, 16 * 1024 * 1024);
}

/**
 * A body over BODY_LIMIT is answered 413 while the client may still be sending it. Fastify would close the connection
 * after the answer, and a socket closed while data still arrives is reset: the client's next write fails with EPIPE
 * and its kernel drops the 413 not yet read. So the connection is kept alive, whatever the client asked, and the rest
 * of the body is read and dropped until it ends or the client closes, up to `bound` bytes or REFUSED_BODY_SECONDS.
 * Past either, reading stops, so that the client's writes wait instead of failing while it reads the 413, and the
 * connection is cut CUT_OFF_SECONDS later.
 */
export function dropRestOfBody(request: FastifyRequest, reply: FastifyReply, bound: number): void {
  reply.header('connection', 'keep-alive');
  const body = request.raw;
  if (body.complete) return;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    body.pause();
    setTimeout(() => body.destroy(), CUT_OFF_SECONDS * 1000).unref();
  };
  const deadline = setTimeout(stop, REFUSED_BODY_SECONDS * 1000).unref();
  let dropped = 0;
  body.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > bound) stop();
  });
  body.once('end', () => clearTimeout(deadline));
  body.once('close', () => clearTimeout(deadline));
}

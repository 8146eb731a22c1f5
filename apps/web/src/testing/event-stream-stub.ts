import { vi } from 'vitest';

/** A server-sent event stream a test writes to and ends, as the API's live endpoint would. */
export function controlledEventStream() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
    },
  });
  return {
    response: new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }),
    send(text: string) {
      controller.enqueue(encoder.encode(text));
    },
    end() {
      controller.close();
    },
  };
}

export type ControlledEventStream = ReturnType<typeof controlledEventStream>;

/**
 * Answers each fetch with the next reply of the list (a stream, a plain response, or an error to
 * throw), and keeps the calls for the test to look at.
 */
export function stubStreams(replies: (ControlledEventStream | Response | Error)[]) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => {
    const reply = replies.shift();
    if (reply === undefined) return new Promise<Response>(() => {});
    if (reply instanceof Error) throw reply;
    return reply instanceof Response ? reply : reply.response;
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

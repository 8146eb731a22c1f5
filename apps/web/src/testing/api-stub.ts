import { vi } from 'vitest';

export interface StubReply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface StubRequest {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * Answers the app's fetch calls from a handler of the test's choosing; anything the handler
 * leaves unanswered gets a 404, so a test sees exactly the calls it expects. A handler may answer
 * with a Response of its own, such as an event stream the test writes to.
 */
export function stubApi(handler: (request: StubRequest) => StubReply | Response | undefined) {
  const requests: StubRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request: StubRequest = {
      method: init?.method ?? 'GET',
      path: String(input),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: (init?.headers ?? {}) as Record<string, string>,
    };
    requests.push(request);
    const reply = handler(request) ?? { status: 404, body: { message: `No stub for ${request.method} ${request.path}` } };
    if (reply instanceof Response) return reply;
    const status = reply.status ?? 200;
    return new Response(status === 204 ? null : JSON.stringify(reply.body ?? {}), { status, headers: { 'Content-Type': 'application/json', ...reply.headers } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { requests, fetchMock };
}

import {
  apiRoutes,
  errorBodySchema,
  type ApiBody,
  type ApiCall,
  type ApiResponseInput,
  type ErrorBody,
  type PathParams,
} from '@pollscope/contract';
import { onTestFinished, vi } from 'vitest';

type PathOf<Call extends ApiCall> = Call extends `${string} ${infer Path}` ? Path : never;

/** A call the app made. */
export interface RecordedRequest {
  method: string;
  /** The path as fetched, query included. */
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

/** A call to a route, as the server would read it. */
export interface StubRequest<Call extends ApiCall> extends RecordedRequest {
  /** The path pattern's parameters, as the path gave them. */
  params: { [Name in keyof PathParams<PathOf<Call>>]: string };
  query: Record<string, string>;
  body: ApiBody<Call> | undefined;
}

/** A success answer: the body the call's schema in the contract describes (none for a call answering nothing). */
type SuccessReply<Call extends ApiCall> = {
  status?: 200 | 201 | 204;
  headers?: Record<string, string>;
} & (null extends ApiResponseInput<Call> ? { body?: ApiResponseInput<Call> } : { body: ApiResponseInput<Call> });

/** A failure answer: the API's error body. */
interface FailureReply {
  status: 400 | 401 | 403 | 404 | 409 | 429 | 500 | 503;
  body: ErrorBody;
  headers?: Record<string, string>;
}

/** What a stubbed call answers; a Response of the test's own (an event stream, say) is sent as it is. */
export type StubReply<Call extends ApiCall> = SuccessReply<Call> | FailureReply | Response;

/**
 * A reply, or a handler choosing one for each request; a handler's undefined leaves the request to the stubs registered
 * before it.
 */
type Stub<Call extends ApiCall> = StubReply<Call> | ((request: StubRequest<Call>) => StubReply<Call> | undefined);

/**
 * Which requests of a route a stub answers: those with these parameters, and with exactly this query (any query when
 * not given).
 */
export interface StubWhere<Call extends ApiCall> {
  params?: Partial<PathParams<PathOf<Call>>>;
  query?: Record<string, string>;
}

/** Whether a request is one `where` names. */
function isWhere(where: StubWhere<ApiCall>, params: Record<string, string>, query: Record<string, string>): boolean {
  const sameParams = Object.entries(where.params ?? {}).every(([name, value]) => params[name] === String(value));
  const sameQuery =
    where.query === undefined ||
    JSON.stringify(Object.entries(query).sort()) === JSON.stringify(Object.entries(where.query).sort());
  return sameParams && sameQuery;
}

/** Throws when a reply's body is not one the server could send for the call, naming what is wrong. */
function checkReply(call: ApiCall, reply: StubReply<ApiCall>): void {
  if (reply instanceof Response) return;
  const status = reply.status ?? 200;
  const schema = status >= 400 ? errorBodySchema : apiRoutes[call].response;
  if (typeof schema === 'string')
    throw new Error(`The stub of ${call} answers a file (${schema}): answer it with a Response`);
  const checked = schema.safeParse(status === 204 ? null : reply.body);
  if (checked.success) return;
  const issues = checked.error.issues.map((issue) => `  ${issue.path.join('.') || 'the body'}: ${issue.message}`);
  throw new Error(
    `The stub of ${call} answers ${status} with a body the contract does not allow:\n${issues.join('\n')}`,
  );
}

/** The parameters a path pattern names, read from a path, or null when the path is not of the pattern. */
function matchPath(pattern: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const source = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const found = new RegExp(`^${source}$`).exec(path);
  return found && Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(found[index + 1])]));
}

/**
 * Answers the app's fetch calls with the replies the test registers for the contract's routes
 * (`on`), each checked against the route's schema when it is registered or sent: a reply the
 * server could never send fails the test. Anything without a reply gets a 404, so a test sees
 * exactly the calls it expects.
 */
export function stubApi() {
  const requests: RecordedRequest[] = [];
  const stubs: { call: ApiCall; stub: Stub<ApiCall>; where: StubWhere<ApiCall> }[] = [];
  let mismatch: Error | undefined;
  onTestFinished(() => {
    if (mismatch) throw mismatch;
  });

  const answer = (request: RecordedRequest & { query: Record<string, string> }): StubReply<ApiCall> | undefined => {
    for (const { call, stub, where } of [...stubs].reverse()) {
      const [method, pattern] = call.split(' ');
      const params = method === request.method ? matchPath(pattern, request.path.split('?')[0]) : null;
      if (!params || !isWhere(where, params, request.query)) continue;
      const reply = typeof stub === 'function' ? stub({ ...request, params } as StubRequest<ApiCall>) : stub;
      if (reply === undefined) continue;
      checkReply(call, reply);
      return reply;
    }
    return undefined;
  };

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    const recorded: RecordedRequest = {
      method: init?.method ?? 'GET',
      path,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: (init?.headers ?? {}) as Record<string, string>,
    };
    requests.push(recorded);
    const request = { ...recorded, query: Object.fromEntries(new URLSearchParams(path.split('?')[1] ?? '')) };
    let reply: StubReply<ApiCall> | undefined;
    try {
      reply = answer(request);
    } catch (error) {
      // The app would take a thrown fetch for a lost connection: the test fails on the mismatch once it ends.
      mismatch ??= error as Error;
      throw error;
    }
    if (reply === undefined)
      return Response.json({ message: `No stub for ${request.method} ${request.path}` }, { status: 404 });
    if (reply instanceof Response) return reply;
    const status = reply.status ?? 200;
    return new Response(status === 204 ? null : JSON.stringify(reply.body ?? null), {
      status,
      headers: { 'Content-Type': 'application/json', ...reply.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);

  return {
    requests,
    fetchMock,
    /**
     * Answers `call` (`METHOD pattern` of the contract's routes), or only its requests `where`
     * says, with `stub`, before any stub registered for them earlier.
     */
    on<Call extends ApiCall>(call: Call, stub: Stub<Call>, where: StubWhere<Call> = {}) {
      if (typeof stub !== 'function') checkReply(call, stub as StubReply<ApiCall>);
      stubs.push({ call, stub: stub as Stub<ApiCall>, where });
    },
  };
}

export type ApiStub = ReturnType<typeof stubApi>;

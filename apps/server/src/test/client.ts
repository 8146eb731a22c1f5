import { errorBodySchema, type ErrorBody } from '@pollscope/contract';
import type { OutgoingHttpHeaders } from 'node:http';
import type { z } from 'zod';

export type Method = 'GET' | 'POST' | 'DELETE';

/** A reply as it came: its status, headers and body, for the errors and headers a test looks at. */
export class RawReply {
  constructor(
    readonly status: number,
    readonly headers: OutgoingHttpHeaders,
    /** The body as sent. */
    readonly text: string,
  ) {}

  /** The body as JSON, unchecked: for a test that looks through every kind of response alike. */
  json(): unknown {
    return JSON.parse(this.text);
  }

  /** The body parsed by the contract's schema of it, so that a wrong shape fails the test. */
  parse<S extends z.ZodType>(schema: S): z.output<S> {
    return schema.parse(this.json());
  }

  /** The contract's error body, with nothing else in it. */
  error(): ErrorBody {
    return errorBodySchema.strict().parse(this.json());
  }
}

/**
 * Calls the API as one user (or anonymously), the way the web app does, by the contract's paths.
 * `get` and `post` expect the call to succeed and return its body parsed by the contract's
 * schema; `raw` returns any reply as it came.
 */
export interface ApiClient {
  get<S extends z.ZodType>(path: string, response: S): Promise<z.output<S>>;
  /** A call sent with no body, as like or follow are. */
  post<S extends z.ZodType>(path: string, response: S): Promise<z.output<S>>;
  /** `body` is typed by the contract's schema of the call's body. */
  post<B extends z.ZodType, S extends z.ZodType>(
    path: string,
    bodySchema: B,
    body: z.input<B>,
    response: S,
  ): Promise<z.output<S>>;
  /** Any body, a wrong one included. */
  raw(method: Method, path: string, body?: object): Promise<RawReply>;
}

/** A client whose calls `send` makes: through `inject` into a test's app, or over HTTP to a running server. */
export function apiClient(send: (method: Method, path: string, body?: object) => Promise<RawReply>): ApiClient {
  const succeeded = async <S extends z.ZodType>(
    method: Method,
    path: string,
    response: S,
    body?: object,
  ): Promise<z.output<S>> => {
    const reply = await send(method, path, body);
    if (reply.status < 200 || reply.status > 299)
      throw new Error(`${method} ${path} answered ${reply.status}: ${reply.text}`);
    // A 204 has no body, which the contract describes as null.
    return reply.status === 204 ? response.parse(null) : reply.parse(response);
  };
  return {
    get: (path, response) => succeeded('GET', path, response),
    post: <S extends z.ZodType>(path: string, ...args: [S] | [z.ZodType, object, S]) =>
      args.length === 1 ? succeeded('POST', path, args[0]) : succeeded('POST', path, args[2], args[1]),
    raw: send,
  };
}

import type { ApiBody, ApiCall, ApiPathOf, ApiQuery, ApiResponse, PathParams } from '@pollscope/contract';

/*
 * Paths of the contract's calls, built from their patterns (`/api/polls/question/:id/`) and
 * typed from the contract's route table: what a GET of one answers, and what a call takes.
 */

declare const answerType: unique symbol;
/**
 * A path of the API to read, built by `apiPath`: a plain string at run time (the data cache's
 * key), whose type carries the answer of a GET of it, so that whoever reads it gets that type.
 */
export type ApiPath<Answer> = string & { readonly [answerType]: Answer };

/** What a call is made with: the parameters its path pattern names, its query and its body, each when it takes one. */
type CallParts<Call extends ApiCall> = (Call extends `${string} ${infer Path}`
  ? keyof PathParams<Path> extends never
    ? { params?: never }
    : { params: PathParams<Path> }
  : never) &
  ([ApiQuery<Call>] extends [never] ? { query?: never } : { query?: ApiQuery<Call> }) &
  ([ApiBody<Call>] extends [never]
    ? { body?: never }
    : undefined extends ApiBody<Call>
      ? { body?: ApiBody<Call> }
      : { body: ApiBody<Call> });
/** A call's parts as an argument, which a call that needs none may leave out. */
export type PartsArg<Call extends ApiCall> =
  Record<never, never> extends CallParts<Call> ? [parts?: CallParts<Call>] : [parts: CallParts<Call>];
export type Call<Method extends string, Path extends string> = `${Method} ${Path}` & ApiCall;

/** A call's parts as the client sends them, whatever the call. */
export interface SentParts {
  params?: Record<string, number | string>;
  /** An object of the contract's query schema (typed by the call, read here whatever its keys). */
  query?: unknown;
  body?: unknown;
}

/** Fills a path pattern's `:name` parameters in and adds the query, each value URL-encoded. */
export function fillPath(pattern: string, { params = {}, query = {} }: SentParts): string {
  const path = pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name]));
  const search = Object.entries(query as Record<string, unknown>)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
    .join('&');
  return search ? `${path}?${search}` : path;
}

/** The path of a GET of the contract's routes, typed with its answer. */
export function apiPath<Path extends ApiPathOf<'GET'>>(
  pattern: Path,
  ...[parts]: PartsArg<Call<'GET', Path>>
): ApiPath<ApiResponse<Call<'GET', Path>>> {
  return fillPath(pattern, parts ?? {}) as ApiPath<ApiResponse<Call<'GET', Path>>>;
}

import type { ApiPathOf, ApiResponse, ErrorBody } from '@pollscope/contract';
import type { MessageId } from '../i18n/catalogs';
import { fillPath, type ApiPath, type Call, type PartsArg, type SentParts } from './api-path';
import { authorizationHeader, clearToken } from './auth-token';
import { takePrefetched } from './prefetch';

/**
 * What the app itself says of a failure the server gave no words for: a message of the catalogs,
 * said in the language on screen where it is shown (hooks/use-error-text.ts).
 */
export interface ClientMessage {
  id: MessageId;
  values?: Record<string, string>;
}

/**
 * A failed call: the server's error body plus the HTTP status (0 when the server was not reached).
 * The server writes its `message` in the person's language; where the app made the message itself
 * (no server reached, or no readable answer), `said` names it in the catalogs and `message` is
 * its English, for logs.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: Record<string, string>;
  readonly said?: ClientMessage;

  constructor(status: number, body: ErrorBody, said?: ClientMessage) {
    super(body.message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = body.errors ?? {};
    this.said = said;
  }
}

/** The server could not be reached. */
const unreachable = () =>
  new ApiError(
    0,
    { message: 'Cannot reach the server. Check your connection and try again.' },
    { id: 'api.error.unreachable' },
  );

export type ApiResult<T> = T | ApiError;

interface RequestOptions {
  method?: 'GET' | 'POST' | 'DELETE';
  body?: unknown;
  /** Sign-in calls send no token, and their 400/401 is a wrong password, not an expired session. */
  anonymous?: boolean;
}

type UnauthorizedListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** The app decides where to go when the session ends; the client only reports it. */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** The failure a response that is not OK describes: in the server's words, or the app's own when it has none. */
async function failure(response: Response): Promise<ApiError> {
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object' && typeof (body as ErrorBody).message === 'string')
      return new ApiError(response.status, body as ErrorBody);
  } catch {
    // Not JSON (a proxy's error page, say): fall through to a generic message.
  }
  const status = String(response.status);
  return new ApiError(
    response.status,
    { message: `Request failed (${status})` },
    { id: 'api.error.failed', values: { status } },
  );
}

/**
 * Whether a failed call says the stored token is no longer accepted. A 401 always does. The
 * API's 403s mean "not allowed" to a valid session (acting on someone who blocked you, a
 * breakdown before answering), so a 403 counts only when it challenges the credentials with a
 * WWW-Authenticate header, as a gateway in front of the API may.
 */
function rejectsToken(response: Response): boolean {
  return response.status === 401 || (response.status === 403 && response.headers.has('WWW-Authenticate'));
}

/** Drops a token the server no longer accepts and reports the ended session; true when it did. */
export function endSessionIfRejected(response: Response): boolean {
  if (!rejectsToken(response)) return false;
  clearToken();
  unauthorizedListeners.forEach((listener) => listener());
  return true;
}

/** Calls the API; failures come back as an ApiError value, never as a thrown error. */
async function request<T>(
  path: string,
  { method = 'GET', body, anonymous = false }: RequestOptions = {},
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { Accept: 'application/json', ...(!anonymous && authorizationHeader()) };
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    const early = method === 'GET' && !anonymous ? takePrefetched(path) : undefined;
    response = await (early ??
      fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
  } catch {
    return unreachable();
  }

  if (!response.ok) {
    if (!anonymous) endSessionIfRejected(response);
    return failure(response);
  }
  // The contract's schema of an answer without content is null.
  if (response.status === 204) return null as T;
  return (await response.json()) as T;
}

/** Reads a path built by `apiPath`; the answer has the type of the contract's schema for it. */
export function apiGet<Answer>(path: ApiPath<Answer>): Promise<ApiResult<Answer>> {
  return request<Answer>(path);
}

type SignInOption = Pick<RequestOptions, 'anonymous'>;

/** Calls a POST of the contract's routes with its parts; the answer has the type of the contract's schema for it. */
export function apiPost<Path extends ApiPathOf<'POST'>>(
  pattern: Path,
  ...args: [...PartsArg<Call<'POST', Path>>, options?: SignInOption]
): Promise<ApiResult<ApiResponse<Call<'POST', Path>>>> {
  const [parts = {}, options = {}] = args as unknown as [SentParts?, SignInOption?];
  return request(fillPath(pattern, parts), { ...options, method: 'POST', body: parts.body });
}

/** Calls a DELETE of the contract's routes with its parts. */
export function apiDelete<Path extends ApiPathOf<'DELETE'>>(
  pattern: Path,
  ...[parts]: PartsArg<Call<'DELETE', Path>>
): Promise<ApiResult<ApiResponse<Call<'DELETE', Path>>>> {
  const sent: SentParts = parts ?? {};
  return request(fillPath(pattern, sent), { method: 'DELETE', body: sent.body });
}

/** A file the API sends as an attachment, with the name it gives it. */
export interface DownloadedFile {
  blob: Blob;
  filename: string;
}

/**
 * Fetches a file as the signed-in person: a plain link cannot send the token. Failures come back as an ApiError value.
 */
export async function apiDownload(path: ApiPath<unknown>, fallbackName: string): Promise<ApiResult<DownloadedFile>> {
  let response: Response;
  try {
    response = await fetch(path, { headers: authorizationHeader() });
  } catch {
    return unreachable();
  }
  if (!response.ok) {
    endSessionIfRejected(response);
    return failure(response);
  }
  const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  return { blob: await response.blob(), filename };
}

/** SWR's fetcher: SWR learns about a failure only from a thrown error. */
export async function fetchJson<T>(path: string): Promise<T> {
  const result = await request<T>(path);
  if (result instanceof ApiError) throw result;
  return result;
}

/** Errors a module throws; the error handler turns each into the contract's error body. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string>,
  ) {
    super(message);
  }
}

export class BadRequestError extends HttpError {
  constructor(message: string, errors?: Record<string, string>) {
    super(400, message, errors);
  }
}

export class UnauthorizedError extends HttpError {
  constructor(message = 'Sign in to continue') {
    super(401, message);
  }
}

export class ForbiddenError extends HttpError {
  constructor(message = 'Not allowed') {
    super(403, message);
  }
}

export class NotFoundError extends HttpError {
  constructor(message = 'Not found') {
    super(404, message);
  }
}

export class ConflictError extends HttpError {
  constructor(message: string, errors?: Record<string, string>) {
    super(409, message, errors);
  }
}

export class TooManyRequestsError extends HttpError {
  constructor(message = 'Too many requests, try again later') {
    super(429, message);
  }
}

/**
 * The server cannot answer now but will soon (overloaded, its database away): the client may try again after
 * `retryAfterSeconds`.
 */
export class ServiceUnavailableError extends HttpError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(503, message);
  }
}

import type { ErrorBody } from '@pollscope/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, isForeignKeyViolation } from '../../db/dialect.js';
import { HttpError, ServiceUnavailableError } from '../../errors.js';
import { dropRestOfBody, refusedBodyBound } from '../../lib/refused-body.js';

const statusMessages: Record<number, string> = {
  400: 'Invalid request',
  404: 'Not found',
  405: 'Method not allowed',
  413: 'Request body too large',
  414: 'Request path too long',
  415: 'Send the body as JSON',
  429: 'Too many requests, try again later',
};

/** Field of a validation issue: `/choices/1` becomes `choices.1`; the whole body is `body`. */
function fieldName(instancePath: string, fallback: string): string {
  const name = instancePath.replace(/^\//, '').replaceAll('/', '.');
  return name || fallback;
}

/**
 * Seconds a client is asked to wait when the database cannot be reached or written: about as long as a restart takes.
 */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** One handler turns every error into `{ message, errors? }`; details of a 5xx stay in the log. */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    const refusedBody = refusedBodyBound(app.config.bodyLimit);
    app.setErrorHandler((thrown: FastifyError, request, reply) => {
      let error: FastifyError | HttpError = thrown;
      if (isDatabaseUnavailable(thrown)) {
        // Answered at once, so that callers and load balancers see the outage rather than a hang; the warnings show how
        // long it lasted.
        request.log.warn({ err: thrown }, 'database unavailable');
        error = new ServiceUnavailableError(
          'The service is briefly unavailable, try again in a few seconds',
          DATABASE_RETRY_AFTER_SECONDS,
        );
      }
      if (error instanceof ServiceUnavailableError) reply.header('retry-after', error.retryAfterSeconds);
      if (error instanceof HttpError) {
        const body: ErrorBody = { message: error.message, ...(error.errors ? { errors: error.errors } : {}) };
        return reply.code(error.statusCode).send(body);
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const errors: Record<string, string> = {};
        for (const issue of error.validation) {
          const name = fieldName(issue.instancePath, error.validationContext ?? 'body');
          errors[name] ??= issue.message ?? 'Invalid value';
        }
        // The message says what to fix, as the first field's error does; the form shows the rest beside their fields.
        return reply
          .code(400)
          .send({ message: Object.values(errors)[0] ?? statusMessages[400], errors } satisfies ErrorBody);
      }
      // A write raced the deletion of what it refers to: a question or person deleted with an account.
      if (isForeignKeyViolation(error))
        return reply.code(404).send({ message: 'Not found: it was just deleted' } satisfies ErrorBody);
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        if (status === 429) reply.header('retry-after', reply.getHeader('retry-after') ?? 60);
        if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') dropRestOfBody(request, reply, refusedBody);
        return reply.code(status).send({ message: statusMessages[status] ?? error.message } satisfies ErrorBody);
      }
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send({ message: 'Something went wrong on our side' } satisfies ErrorBody);
    });

    app.setNotFoundHandler((request, reply) => {
      reply.code(404).send({ message: `No route ${request.method} ${request.url.split('?')[0]}` } satisfies ErrorBody);
    });
  },
  { name: 'error-handler' },
);

/**
 * The router refuses a path it cannot decode (`/api/polls/question/1%`) or a parameter too long, before any route runs.
 */
export function replyToBadUrl(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode ?? 400;
  reply.code(status).send({ message: statusMessages[status] ?? statusMessages[400] } satisfies ErrorBody);
}

import type { ErrorBody, UiLocale } from '@pollscope/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, isForeignKeyViolation } from '../../db/database-errors.js';
import { HttpError, ServiceUnavailableError } from '../../errors.js';
import { issueText, renderText, type MessageRef } from '../../i18n/error-texts.js';
import { visitorLocale } from '../../i18n/locale.js';
import { requestLocale } from '../../views/request-locale.js';
import type { MessageId } from '../../i18n/messages.js';
import { dropRestOfBody, refusedBodyBound } from '../../lib/refused-body.js';

const statusMessages: Record<number, MessageId> = {
  400: 'errors.invalidRequest',
  404: 'errors.notFound',
  405: 'errors.methodNotAllowed',
  413: 'errors.bodyTooLarge',
  414: 'errors.pathTooLong',
  415: 'errors.sendJson',
  429: 'errors.rateLimited.later',
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

/** The language an error is answered in: the request's (views/request-locale.ts); with the database away, the visitor's. */
const localeOf = (request: FastifyRequest, databaseAway = false): Promise<UiLocale> | UiLocale =>
  databaseAway ? visitorLocale(request.headers) : requestLocale(request);

/** What a visitor's language is chosen by. */
const LANGUAGE_HINTS = ['Accept-Language', 'Cookie'];

/** Sends the contract's error body, its texts in `locale`, which `Content-Language` names. */
function sendError(
  reply: FastifyReply,
  locale: UiLocale,
  status: number,
  text: MessageRef | string,
  errors?: Record<string, MessageRef | string>,
): FastifyReply {
  const body: ErrorBody = {
    message: renderText(locale, text),
    ...(errors
      ? { errors: Object.fromEntries(Object.entries(errors).map(([field, ref]) => [field, renderText(locale, ref)])) }
      : {}),
  };
  // The same call answers in each person's language: a shared cache must keep them apart.
  const vary = reply.getHeader('vary');
  const varies = typeof vary === 'string' ? vary.split(',').map((name) => name.trim().toLowerCase()) : [];
  const more = LANGUAGE_HINTS.filter((name) => !varies.includes(name.toLowerCase()));
  if (more.length > 0) reply.header('vary', [...(vary ? [String(vary)] : []), ...more].join(', '));
  return reply.code(status).header('content-language', locale).send(body);
}

/** One handler turns every error into `{ message, errors? }`, in the person's language; details of a 5xx stay in the log. */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    const refusedBody = refusedBodyBound(app.config.bodyLimit);
    app.setErrorHandler(async (thrown: FastifyError, request, reply) => {
      let error: FastifyError | HttpError = thrown;
      const databaseAway = isDatabaseUnavailable(thrown);
      if (databaseAway) {
        // Answered at once, so that callers and load balancers see the outage rather than a hang; the warnings show how
        // long it lasted.
        request.log.warn({ err: thrown }, 'database unavailable');
        error = new ServiceUnavailableError('errors.unavailable', DATABASE_RETRY_AFTER_SECONDS);
      }
      const locale = await localeOf(request, databaseAway);
      if (error instanceof ServiceUnavailableError) reply.header('retry-after', error.retryAfterSeconds);
      if (error instanceof HttpError) return sendError(reply, locale, error.statusCode, error.text, error.fieldTexts);
      if (hasZodFastifySchemaValidationErrors(error)) {
        const errors: Record<string, MessageRef> = {};
        for (const issue of error.validation) {
          const name = fieldName(issue.instancePath, error.validationContext ?? 'body');
          errors[name] ??= issueText(issue);
        }
        // The message says what to fix, as the first field's error does; the form shows the rest beside their fields.
        return sendError(reply, locale, 400, Object.values(errors)[0] ?? { id: statusMessages[400] }, errors);
      }
      // A write raced the deletion of what it refers to: a question or person deleted with an account.
      if (isForeignKeyViolation(error)) return sendError(reply, locale, 404, { id: 'errors.justDeleted' });
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        if (status === 429) reply.header('retry-after', reply.getHeader('retry-after') ?? 60);
        if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') dropRestOfBody(request, reply, refusedBody);
        const known = statusMessages[status];
        return sendError(reply, locale, status, known ? { id: known } : error.message);
      }
      request.log.error({ err: error }, 'request failed');
      return sendError(reply, locale, 500, { id: 'errors.internal' });
    });

    app.setNotFoundHandler(async (request, reply) =>
      sendError(reply, await localeOf(request), 404, {
        id: 'errors.noRoute',
        values: { method: request.method, path: request.url.split('?')[0] },
      }),
    );
  },
  { name: 'error-handler' },
);

/**
 * The router refuses a path it cannot decode (`/api/polls/question/1%`) or a parameter too long, before any route runs:
 * in the visitor's language, as no session was looked at.
 */
export function replyToBadUrl(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode ?? 400;
  sendError(reply, visitorLocale(request.headers), status, { id: statusMessages[status] ?? statusMessages[400] });
}

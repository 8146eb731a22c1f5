import { refOfEnglish, renderText, type MessageRef } from './i18n/error-texts.js';
import { catalogs, type MessageId } from './i18n/messages.js';

export type { MessageRef, MessageValues } from './i18n/error-texts.js';

/**
 * A text of an error, by its id in the server's catalogs (i18n/catalogs) and its values: the error handler writes it in
 * the language of the request it answers (CONTRACT.md §7), and `Error.message` keeps it in English, for the logs.
 */
export type ErrorText = MessageId | MessageRef;

/**
 * A text given in English rather than by its id: its id is found when the English catalog has that very text
 * (i18n/error-texts.ts); else it is sent as it is, in every language.
 */
export type EnglishText = string;

export type FieldTexts = Record<string, ErrorText>;

/** The id and values of a text given either way. */
function refOf(text: ErrorText | EnglishText): MessageRef | string {
  if (typeof text !== 'string') return text;
  if (Object.hasOwn(catalogs.en, text)) return { id: text as MessageId };
  return refOfEnglish(text) ?? text;
}

const english = (text: MessageRef | string): string => renderText('en', text);

/** Errors a module throws; the error handler turns each into the contract's error body, in the request's language. */
export class HttpError extends Error {
  /** The message, by id, or as English text where a caller gave no id. */
  readonly text: MessageRef | string;
  /** Each field's error, likewise. */
  readonly fieldTexts?: Record<string, MessageRef | string>;
  /** The fields' errors in English. */
  readonly errors?: Record<string, string>;

  constructor(
    readonly statusCode: number,
    text: ErrorText | EnglishText,
    errors?: Record<string, ErrorText | EnglishText>,
  ) {
    const ref = refOf(text);
    super(english(ref));
    this.text = ref;
    if (errors) {
      this.fieldTexts = Object.fromEntries(
        Object.entries(errors).map(([field, fieldText]) => [field, refOf(fieldText)]),
      );
      this.errors = Object.fromEntries(Object.entries(this.fieldTexts).map(([field, ref]) => [field, english(ref)]));
    }
  }
}

/*
 * Each error takes its message by id (`'errors.noSuchQuestion'`) or by id and values
 * (`{ id: 'errors.useKey', values: { count: 4 } }`). An English string is still taken, for the modules whose texts
 * another part of the code owns; the ids are the way.
 */

export class BadRequestError extends HttpError {
  constructor(message: ErrorText, errors?: FieldTexts);
  /** @deprecated English only: give the message's id. */
  constructor(message: EnglishText, errors?: Record<string, EnglishText>);
  constructor(message: ErrorText | EnglishText, errors?: Record<string, ErrorText | EnglishText>) {
    super(400, message, errors);
  }
}

export class UnauthorizedError extends HttpError {
  constructor(message: ErrorText = 'errors.signIn') {
    super(401, message);
  }
}

export class ForbiddenError extends HttpError {
  constructor(message?: ErrorText);
  /** @deprecated English only: give the message's id. */
  constructor(message: EnglishText);
  constructor(message: ErrorText | EnglishText = 'errors.notAllowed') {
    super(403, message);
  }
}

export class NotFoundError extends HttpError {
  constructor(message?: ErrorText);
  /** @deprecated English only: give the message's id. */
  constructor(message: EnglishText);
  constructor(message: ErrorText | EnglishText = 'errors.notFound') {
    super(404, message);
  }
}

export class ConflictError extends HttpError {
  constructor(message: ErrorText, errors?: FieldTexts) {
    super(409, message, errors);
  }
}

export class TooManyRequestsError extends HttpError {
  constructor(message: ErrorText = 'errors.rateLimited.later') {
    super(429, message);
  }
}

/** A form of an answer the server does not make (oEmbed in XML). */
export class NotImplementedError extends HttpError {
  constructor(message: ErrorText) {
    super(501, message);
  }
}

/**
 * The server cannot answer now but will soon (overloaded, its database away): the client may try again after
 * `retryAfterSeconds`.
 */
export class ServiceUnavailableError extends HttpError {
  constructor(
    message: ErrorText | EnglishText,
    readonly retryAfterSeconds: number,
  ) {
    super(503, message);
  }
}

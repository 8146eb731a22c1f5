import {
  MAX_AGE,
  MC_MAX_CHOICES,
  MC_MIN_CHOICES,
  MIN_AGE,
  QUESTION_MAX_LENGTH,
  UI_LOCALES,
  type UiLocale,
} from '@pollscope/contract';
import { catalogs, message, type MessageId } from './messages.js';

/**
 * The API's error texts in the person's language (CONTRACT.md §7; docs/i18n.md, On the server): an error carries its
 * message's id and values, and the error handler writes it in the request's locale. The validation texts of the
 * contract's schemas are English strings there (the web app shows them too): each is found again in the English
 * catalog by its very text, so that the contract stays as it is and one more text of it needs one more catalog entry,
 * nothing else.
 */

/** A message's values; a `Date` is written as a moment in UTC, in the reader's language. */
export type MessageValues = NonNullable<Parameters<typeof message>[2]>;

export interface MessageRef {
  id: MessageId;
  values?: MessageValues;
  /** What English readers get instead of the catalog's English: the library's own text for a generic problem. */
  english?: string;
}

/** A moment as the reader's language writes it, in UTC; English as the spec does, in British English. */
function moment(locale: UiLocale, date: Date): string {
  return new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : locale, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(date);
}

/** An error's text in `locale`; one given as English without an id stays as it was given. */
export function renderText(locale: UiLocale, text: MessageRef | string): string {
  if (typeof text === 'string') return text;
  if (locale === 'en' && text.english !== undefined) return text.english;
  const values =
    text.values &&
    Object.fromEntries(
      Object.entries(text.values).map(([name, value]) => [name, value instanceof Date ? moment(locale, value) : value]),
    );
  return message(locale, text.id, values);
}

/** The ids whose English holds no placeholder, by that English. */
const plainIds = new Map<string, MessageId>();
/** The contract's texts with numbers in them: found by their English written with the values below. */
const templatedIds: MessageId[] = [];
for (const [id, english] of Object.entries(catalogs.en) as [MessageId, string][]) {
  if (!english.includes('{')) {
    if (!plainIds.has(english)) plainIds.set(english, id);
  } else if (id.startsWith('validation.') && !id.startsWith('validation.generic.')) templatedIds.push(id);
}

/** The contract's constants its texts are written with. */
const CONTRACT_VALUES = {
  minAge: MIN_AGE,
  maxAge: MAX_AGE,
  minChoices: MC_MIN_CHOICES,
  maxChoices: MC_MAX_CHOICES,
  questionLimit: QUESTION_MAX_LENGTH + 1,
  locales: UI_LOCALES.join(', '),
} as const;

/**
 * The id of an English text, with the values it was written with (`values`: the bound of a zod issue, say), or null
 * when the English catalog has no such text.
 */
export function refOfEnglish(text: string, values: MessageValues = {}): MessageRef | null {
  const plain = plainIds.get(text);
  if (plain) return { id: plain };
  const all = { ...CONTRACT_VALUES, ...values };
  for (const id of templatedIds) if (message('en', id, all) === text) return { id, values: all };
  return null;
}

/** What a validation issue says (fastify-type-provider-zod's: zod's issue code as `keyword`, its fields as `params`). */
export interface IssueLike {
  keyword: string;
  message?: string;
  params?: Record<string, unknown>;
}

const numberOr = (value: unknown): number | undefined =>
  typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : undefined;

/** A problem zod described in its own words (no text of the contract): its kind, told in every language. */
function genericRef({ keyword, params = {} }: IssueLike): MessageRef {
  const origin = params.origin;
  const maximum = numberOr(params.maximum);
  const minimum = numberOr(params.minimum);
  const sized = (count: number | undefined, numbers: MessageId, texts: MessageId, items: MessageId): MessageRef => {
    if (count === undefined) return { id: 'errors.invalidValue' };
    const id = origin === 'string' ? texts : origin === 'array' || origin === 'set' ? items : numbers;
    return { id, values: { maximum: count, minimum: count } };
  };
  switch (keyword) {
    case 'too_big':
      return sized(
        maximum,
        'validation.generic.numberAtMost',
        'validation.atMostCharacters',
        'validation.generic.itemsAtMost',
      );
    case 'too_small':
      return sized(
        minimum,
        'validation.generic.numberAtLeast',
        'validation.atLeastCharacters',
        'validation.generic.itemsAtLeast',
      );
    case 'invalid_value':
      return Array.isArray(params.values)
        ? { id: 'validation.generic.pickOneOf', values: { options: params.values.map(String).join(', ') } }
        : { id: 'errors.invalidValue' };
    case 'invalid_format':
      return { id: 'validation.generic.format' };
    case 'unrecognized_keys':
      return Array.isArray(params.keys)
        ? { id: 'validation.generic.unknownFields', values: { fields: params.keys.map(String).join(', ') } }
        : { id: 'errors.invalidValue' };
    default:
      return { id: 'errors.invalidValue' };
  }
}

/**
 * The text of a validation issue: the contract's own text, by its English (its bound among the values), or else what
 * kind of problem it is, which English readers get in zod's words as before.
 */
export function issueText(issue: IssueLike): MessageRef {
  const english = issue.message;
  if (!english) return { id: 'errors.invalidValue' };
  const params = issue.params ?? {};
  const bounds = { maximum: numberOr(params.maximum), minimum: numberOr(params.minimum) };
  return refOfEnglish(english, bounds) ?? { ...genericRef(issue), english };
}

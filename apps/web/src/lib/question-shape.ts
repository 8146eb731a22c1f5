import {
  ISO_639_1_CODES,
  type Category,
  type McAnswer,
  type Question,
  type QuestionType,
  type Result,
  type ValueAnswer,
} from '@pollscope/contract';
import { useMemo } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import type { MessageId } from '../i18n/i18n-provider';
import { locales } from '../i18n/locales';

export type McChoice = { key: number; value: string };
export type Range = { min: number; max: number };

/** The slider's bounds when a question carries none. */
const DEFAULT_RANGE: Range = { min: 0, max: 10 };

export function mcChoices(question: Pick<Question, 'choices'>): McChoice[] {
  return Array.isArray(question.choices) ? question.choices : [];
}

export function rangeOf(question: Pick<Question, 'choices'>): Range {
  return Array.isArray(question.choices) ? DEFAULT_RANGE : question.choices;
}

export function mcAnswers(result: Result): McAnswer[] {
  return result.answers.filter((answer): answer is McAnswer => 'key' in answer);
}

export function valueAnswers(result: Result): ValueAnswer[] {
  return result.answers.filter((answer): answer is ValueAnswer => 'choice' in answer);
}

/** The mean of the votes, from the server when it gives one. */
export function averageOf(result: Result): number | null {
  if (result.average !== undefined) return result.average;
  const answers = valueAnswers(result);
  const count = answers.reduce((sum, answer) => sum + answer.count, 0);
  if (count === 0) return null;
  return answers.reduce((sum, answer) => sum + answer.choice * answer.count, 0) / count;
}

/** A choice's text by its key, or "Choice 3" in the reader's language for a key the question no longer has. */
export function useChoiceLabel(): (question: Pick<Question, 'choices'>, key: number) => string {
  const intl = useIntl();
  return (question, key) =>
    mcChoices(question).find((choice) => choice.key === key)?.value ??
    intl.formatMessage({ id: 'questions.choice.unnamed' }, { key });
}

/** The name of each type of question. */
export const questionTypeLabels: Record<QuestionType, MessageId> = {
  MC: 'questions.type.mc',
  RS: 'questions.type.rs',
  N: 'questions.type.n',
};

/**
 * The categories the server seeds with fixed English names (apps/server/src/seed/reference.ts),
 * each by its slug: the English name in lower case, words joined by hyphens ("Food & Drink" is
 * `food-drink`). A category the table does not know keeps the server's name.
 */
const categoryNames: Partial<Record<string, MessageId>> = {
  politics: 'questions.category.politics',
  sports: 'questions.category.sports',
  technology: 'questions.category.technology',
  entertainment: 'questions.category.entertainment',
  science: 'questions.category.science',
  health: 'questions.category.health',
  'food-drink': 'questions.category.foodDrink',
  travel: 'questions.category.travel',
  lifestyle: 'questions.category.lifestyle',
  business: 'questions.category.business',
  education: 'questions.category.education',
  relationships: 'questions.category.relationships',
};

/** A category's slug: its English name in lower case, each run of other characters a hyphen. */
export function categorySlug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Names a category in the reader's language, or by the server's name when it is not one of the seeded ones. */
export function useCategoryName(): (category: Pick<Category, 'name'>) => string {
  const intl = useIntl();
  return (category) => {
    const id = categoryNames[categorySlug(category.name)];
    return id ? intl.formatMessage({ id }) : category.name;
  };
}

/** The categories, each named in the reader's language, in the server's order. */
export function useNamedCategories(categories: readonly Category[]): Category[] {
  const nameOf = useCategoryName();
  return categories.map((category) => ({ ...category, name: nameOf(category) }));
}

/** A language tag's language alone, in lower case: `pt-BR` → `pt`, `de` → `de`. */
export function primaryLanguage(tag: string): string {
  return tag.split(/[-_]/)[0].toLowerCase();
}

/** The languages of the interface as ISO 639-1 codes, in the switcher's order. */
export const interfaceLanguages: readonly string[] = [...new Set(locales.map(primaryLanguage))];

/** A language (an ISO 639-1 code) named in the reader's language, as a label standing alone starts: "German", "Allemand". */
function languageName(intl: IntlShape, code: string): string {
  const name = intl.formatDisplayName(code, { type: 'language' }) ?? code;
  return name.charAt(0).toLocaleUpperCase(intl.locale) + name.slice(1);
}

/** Names a language (an ISO 639-1 code) in the reader's language: "German", "Allemand", "ドイツ語". */
export function useLanguageName(): (code: string) => string {
  const intl = useIntl();
  return (code) => languageName(intl, code);
}

/** The reader's interface language as an ISO 639-1 code: `pt` in `pt-BR`. */
export function useReaderLanguage(): string {
  return primaryLanguage(useIntl().locale);
}

export interface LanguageOption {
  code: string;
  name: string;
}

/**
 * The languages a question may be written in, named in the reader's language: the interface's
 * languages (`common`), then every other ISO 639-1 language the browser can name in the reader's
 * language (a bare code names nothing to a reader), in the reader's alphabetical order.
 */
export function useQuestionLanguages(): { common: LanguageOption[]; other: LanguageOption[] } {
  const intl = useIntl();
  return useMemo(() => {
    const named = (code: string) => ({ code, name: languageName(intl, code) });
    const collator = new Intl.Collator(intl.locale);
    return {
      common: interfaceLanguages.map(named),
      other: [...ISO_639_1_CODES]
        .filter(
          (code) =>
            !interfaceLanguages.includes(code) &&
            intl.formatDisplayName(code, { type: 'language', fallback: 'none' }) !== undefined,
        )
        .map(named)
        .sort((a, b) => collator.compare(a.name, b.name)),
    };
  }, [intl]);
}

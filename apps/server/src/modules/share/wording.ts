import { directionOf, type Question, type UiLocale } from '@pollscope/contract';
import { intlFor, message } from '../../i18n/messages.js';

/** The choices of a multiple-choice question, in order; none for a rating or a number. */
export function choiceValues(question: Pick<Question, 'choices'>): string[] {
  return Array.isArray(question.choices) ? question.choices.map((choice) => choice.value) : [];
}

/** How a rating or a number is answered, in words of `locale`; null for a multiple choice. */
export function scaleText(question: Pick<Question, 'type' | 'choices'>, locale: UiLocale): string | null {
  if (Array.isArray(question.choices)) return null;
  const { min, max } = question.choices;
  return question.type === 'RS'
    ? message(locale, 'share.scale.rating', { min, max })
    : message(locale, 'share.scale.number', { min, max });
}

export function votesText(count: number, locale: UiLocale): string {
  return message(locale, 'share.votes', { count });
}

/** What a link preview says under the title, in `locale`: who asked, how many answered, and the choices. */
export function previewDescription(question: Question, locale: UiLocale): string {
  const choices = choiceValues(question);
  return message(locale, 'share.preview.description', {
    name: question.user_name,
    count: question.vote_count,
    answers: choices.length > 0 ? choices.join(' · ') : (scaleText(question, locale) ?? ''),
  });
}

/**
 * The vote count a picture shows: exact under 10, then rounded down to one significant digit
 * under 100 and two above ("40+", "1.2K+"), so a picture stays right, and cached, for many votes.
 */
export function shownVotes(count: number, locale: UiLocale): string {
  if (count < 10) return votesText(count, locale);
  const digits = count < 100 ? 1 : 2;
  const unit = 10 ** (Math.floor(Math.log10(count)) - digits + 1);
  const rounded = Math.floor(count / unit) * unit;
  const shown = intlFor(locale).formatNumber(rounded, { notation: 'compact' });
  return message(locale, 'share.card.votesAtLeast', { count: rounded, shown });
}

/**
 * What a picture shows of a question, its frame in `locale`, the asker's language: two questions alike in this get the
 * same picture.
 */
export function shownOf(question: Question, locale: UiLocale) {
  return {
    id: question.id,
    qid: question.qid,
    title: question.title,
    choices: choiceValues(question),
    scale: scaleText(question, locale),
    tag: question.tags.at(0)?.name ?? null,
    author: question.user_name,
    votes: shownVotes(question.vote_count, locale),
    call: message(locale, 'share.card.call'),
    /** The frame's, right to left in Arabic. */
    direction: directionOf(locale),
  };
}
export type Shown = ReturnType<typeof shownOf>;

import type { CreateQuestionBody, QuestionType } from '@pollscope/contract';
import type { MessageId } from '../../i18n/i18n-provider';

/** What the form says of a field it cannot send. */
export const draftErrorIds = {
  question: 'ask.error.question',
  choice: 'ask.error.choice',
  tag: 'ask.error.tag',
  wholeNumber: 'ask.error.wholeNumber',
  bounds: 'ask.error.bounds',
} as const satisfies Record<string, MessageId>;

export type DraftErrorKind = keyof typeof draftErrorIds;

const TAG_PATTERN = /^[\p{L}\p{N}_-]+$/u;
const WHOLE_NUMBER = /^-?\d{1,9}$/;

/** A question as it is being written, every field as typed. */
export interface Draft {
  type: QuestionType;
  question: string;
  tag: string;
  category: string;
  /** The language the question is written in, an ISO 639-1 code. */
  language: string;
  choices: string[];
  min: string;
  max: string;
}

export type DraftErrors = Partial<Record<'question' | 'tag' | 'min' | 'max', DraftErrorKind>> & {
  choices?: (DraftErrorKind | undefined)[];
};

/** A multiple-choice poll with two empty choices, in the reader's language. */
export const emptyDraft = (language: string): Draft => ({
  type: 'MC',
  question: '',
  tag: '',
  category: '',
  language,
  choices: ['', ''],
  min: '0',
  max: '100',
});

export function validateDraft(draft: Draft): DraftErrors {
  const errors: DraftErrors = {};
  if (draft.question.trim() === '') errors.question = 'question';
  const tag = draft.tag.trim().replace(/^#/, '');
  if (tag !== '' && !TAG_PATTERN.test(tag)) errors.tag = 'tag';
  if (draft.type === 'MC') {
    const choiceErrors = draft.choices.map((choice) => (choice.trim() === '' ? ('choice' as const) : undefined));
    if (choiceErrors.some(Boolean)) errors.choices = choiceErrors;
  }
  if (draft.type === 'N') {
    if (!WHOLE_NUMBER.test(draft.min.trim())) errors.min = 'wholeNumber';
    if (!WHOLE_NUMBER.test(draft.max.trim())) errors.max = 'wholeNumber';
    if (!errors.min && !errors.max && Number(draft.min) >= Number(draft.max)) errors.max = 'bounds';
  }
  return errors;
}

export function draftBody(draft: Draft): CreateQuestionBody {
  const tag = draft.tag.trim().replace(/^#/, '');
  const choices = { MC: draft.choices.map((choice) => choice.trim()), RS: [], N: [draft.min.trim(), draft.max.trim()] }[
    draft.type
  ];
  return {
    type: draft.type,
    question: draft.question.trim(),
    choices,
    tags: tag ? [tag] : [],
    category: draft.category ? Number(draft.category) : null,
    language: draft.language,
  };
}

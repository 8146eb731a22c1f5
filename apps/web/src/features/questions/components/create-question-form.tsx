import {
  MC_MAX_CHOICES,
  MC_MIN_CHOICES,
  QUESTION_MAX_LENGTH,
  TAG_MAX_LENGTH,
  CHOICE_MAX_LENGTH,
  type Category,
  type CreateQuestionBody,
  type Question,
  type QuestionType,
} from '@pollscope/contract';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { NamedSelect } from '../../../components/ui/named-select';
import { CloseIcon, PlusIcon } from '../../../components/ui/icons';
import { useErrorText } from '../../../hooks/use-error-text';
import type { MessageId } from '../../../i18n/i18n-provider';
import { ApiError } from '../../../lib/api-client';
import {
  questionTypeLabels,
  useNamedCategories,
  useQuestionLanguages,
  useReaderLanguage,
} from '../../../lib/question-shape';
import { createQuestion } from '../api/create-question';

/** What the form says of a field it cannot send. */
const errorIds = {
  question: 'ask.error.question',
  choice: 'ask.error.choice',
  tag: 'ask.error.tag',
  wholeNumber: 'ask.error.wholeNumber',
  bounds: 'ask.error.bounds',
} as const satisfies Record<string, MessageId>;

type ErrorKind = keyof typeof errorIds;

const TAG_PATTERN = /^[\p{L}\p{N}_-]+$/u;
const WHOLE_NUMBER = /^-?\d{1,9}$/;

interface Draft {
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

type Errors = Partial<Record<'question' | 'tag' | 'min' | 'max', ErrorKind>> & { choices?: (ErrorKind | undefined)[] };

function validate(draft: Draft): Errors {
  const errors: Errors = {};
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

function toBody(draft: Draft): CreateQuestionBody {
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

interface CreateQuestionFormProps {
  categories: Category[];
  onCreated: (question: Question) => void;
  onBack: () => void;
}

export function CreateQuestionForm({ categories, onCreated, onBack }: CreateQuestionFormProps) {
  const intl = useIntl();
  const errorText = useErrorText();
  const namedCategories = useNamedCategories(categories);
  const languages = useQuestionLanguages();
  const readerLanguage = useReaderLanguage();
  const say = (id: MessageId) => intl.formatMessage({ id });
  const fieldError = (kind: ErrorKind | undefined) => (kind ? say(errorIds[kind]) : undefined);
  const [draft, setDraft] = useState<Draft>({
    type: 'MC',
    question: '',
    tag: '',
    category: '',
    language: readerLanguage,
    choices: ['', ''],
    min: '0',
    max: '100',
  });
  const [errors, setErrors] = useState<Errors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const change = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const setChoice = (index: number, value: string) =>
    change({ choices: draft.choices.map((choice, i) => (i === index ? value : choice)) });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(draft);
    setErrors(found);
    setServerError(null);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    const result = await createQuestion(toBody(draft));
    setPending(false);
    if (result instanceof ApiError) setServerError(errorText(result));
    else onCreated(result.question);
  }

  return (
    <form className="form card" onSubmit={submit} noValidate aria-label={say('ask.form')}>
      <Field label={say('ask.type')}>
        <select
          className="select"
          value={draft.type}
          onChange={(event) => change({ type: event.target.value as QuestionType })}
        >
          {(['MC', 'RS', 'N'] as const).map((type) => (
            <option key={type} value={type}>
              {say(questionTypeLabels[type])}
            </option>
          ))}
        </select>
      </Field>

      <Field
        label={say('ask.question')}
        error={fieldError(errors.question)}
        hint={intl.formatMessage(
          { id: 'ask.questionLength' },
          { length: draft.question.length, max: QUESTION_MAX_LENGTH },
        )}
      >
        <textarea
          className="textarea"
          required
          maxLength={QUESTION_MAX_LENGTH}
          lang={draft.language}
          value={draft.question}
          placeholder={say('ask.questionPlaceholder')}
          onChange={(event) => change({ question: event.target.value })}
        />
      </Field>

      {draft.type === 'MC' && (
        <fieldset className="fieldset">
          <legend className="fieldset__legend">
            <FormattedMessage id="ask.choices" />
          </legend>
          <div className="choice-editor">
            {draft.choices.map((choice, index) => (
              <div key={index} className="choice-editor__row">
                <Field
                  label={intl.formatMessage({ id: 'ask.choice' }, { number: index + 1 })}
                  error={fieldError(errors.choices?.[index])}
                >
                  <input
                    className="input"
                    required
                    maxLength={CHOICE_MAX_LENGTH}
                    lang={draft.language}
                    value={choice}
                    onChange={(event) => setChoice(index, event.target.value)}
                  />
                </Field>
                {draft.choices.length > MC_MIN_CHOICES && (
                  <Button
                    variant="ghost"
                    className="choice-editor__remove"
                    aria-label={intl.formatMessage({ id: 'ask.removeChoice' }, { number: index + 1 })}
                    onClick={() => change({ choices: draft.choices.filter((_, i) => i !== index) })}
                  >
                    <CloseIcon />
                  </Button>
                )}
              </div>
            ))}
          </div>
          {draft.choices.length < MC_MAX_CHOICES && (
            <div>
              <Button size="small" onClick={() => change({ choices: [...draft.choices, ''] })}>
                <PlusIcon />
                <FormattedMessage id="ask.addChoice" />
              </Button>
            </div>
          )}
        </fieldset>
      )}

      {draft.type === 'RS' && (
        <p className="muted">
          <FormattedMessage id="ask.ratingHint" values={{ min: 1, max: 10 }} />
        </p>
      )}

      {draft.type === 'N' && (
        <div className="form-grid">
          <Field label={say('ask.minimum')} error={fieldError(errors.min)}>
            <input
              className="input"
              type="number"
              step={1}
              required
              value={draft.min}
              onChange={(event) => change({ min: event.target.value })}
            />
          </Field>
          <Field label={say('ask.maximum')} error={fieldError(errors.max)}>
            <input
              className="input"
              type="number"
              step={1}
              required
              value={draft.max}
              onChange={(event) => change({ max: event.target.value })}
            />
          </Field>
        </div>
      )}

      <div className="form-grid">
        <Field
          label={say('ask.tag')}
          error={fieldError(errors.tag)}
          hint={intl.formatMessage({ id: 'ask.tagHint' }, { max: TAG_MAX_LENGTH })}
        >
          <input
            className="input"
            maxLength={TAG_MAX_LENGTH}
            value={draft.tag}
            placeholder={say('ask.tagPlaceholder')}
            onChange={(event) => change({ tag: event.target.value })}
          />
        </Field>
        <Field label={say('ask.category')}>
          <NamedSelect
            value={draft.category}
            onChange={(category) => change({ category })}
            placeholder={say('ask.noCategory')}
            options={namedCategories}
          />
        </Field>
        <Field label={say('ask.language')}>
          <select
            className="select"
            value={draft.language}
            onChange={(event) => change({ language: event.target.value })}
          >
            <optgroup label={say('ask.languages.common')}>
              {languages.common.map(({ code, name }) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </optgroup>
            <optgroup label={say('ask.languages.other')}>
              {languages.other.map(({ code, name }) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </optgroup>
          </select>
        </Field>
      </div>

      {serverError && <Banner tone="error">{serverError}</Banner>}

      <div className="form-actions">
        <Button type="submit" variant="primary" pending={pending}>
          <FormattedMessage id="ask.publish" />
        </Button>
        <Button variant="ghost" onClick={onBack}>
          <FormattedMessage id="ask.back" />
        </Button>
      </div>
    </form>
  );
}

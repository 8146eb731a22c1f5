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
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { NamedSelect } from '../../../components/ui/named-select';
import { CloseIcon, PlusIcon } from '../../../components/ui/icons';
import { ApiError } from '../../../lib/api-client';
import { typeLabels } from '../../../lib/question-shape';
import { createQuestion } from '../api/create-question';

export const createMessages = {
  question: 'Please enter your question!',
  choice: 'Please fill in this choice!',
  tag: 'A tag holds letters, digits, - and _ only.',
  wholeNumber: 'Please enter a whole number!',
  bounds: 'The minimum must be below the maximum!',
} as const;

const TAG_PATTERN = /^[\p{L}\p{N}_-]+$/u;
const WHOLE_NUMBER = /^-?\d{1,9}$/;

interface Draft {
  type: QuestionType;
  question: string;
  tag: string;
  category: string;
  choices: string[];
  min: string;
  max: string;
}

type Errors = Partial<Record<'question' | 'tag' | 'min' | 'max', string>> & { choices?: (string | undefined)[] };

function validate(draft: Draft): Errors {
  const errors: Errors = {};
  if (draft.question.trim() === '') errors.question = createMessages.question;
  const tag = draft.tag.trim().replace(/^#/, '');
  if (tag !== '' && !TAG_PATTERN.test(tag)) errors.tag = createMessages.tag;
  if (draft.type === 'MC') {
    const choiceErrors = draft.choices.map((choice) => (choice.trim() === '' ? createMessages.choice : undefined));
    if (choiceErrors.some(Boolean)) errors.choices = choiceErrors;
  }
  if (draft.type === 'N') {
    if (!WHOLE_NUMBER.test(draft.min.trim())) errors.min = createMessages.wholeNumber;
    if (!WHOLE_NUMBER.test(draft.max.trim())) errors.max = createMessages.wholeNumber;
    if (!errors.min && !errors.max && Number(draft.min) >= Number(draft.max)) errors.max = createMessages.bounds;
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
  };
}

interface CreateQuestionFormProps {
  categories: Category[];
  onCreated: (question: Question) => void;
  onBack: () => void;
}

export function CreateQuestionForm({ categories, onCreated, onBack }: CreateQuestionFormProps) {
  const [draft, setDraft] = useState<Draft>({
    type: 'MC',
    question: '',
    tag: '',
    category: '',
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
    if (result instanceof ApiError) setServerError(result.message);
    else onCreated(result.question);
  }

  return (
    <form className="form card" onSubmit={submit} noValidate aria-label="Create Poll">
      <Field label="Type">
        <select
          className="select"
          value={draft.type}
          onChange={(event) => change({ type: event.target.value as QuestionType })}
        >
          {(['MC', 'RS', 'N'] as const).map((type) => (
            <option key={type} value={type}>
              {typeLabels[type]}
            </option>
          ))}
        </select>
      </Field>

      <Field label="Question" error={errors.question} hint={`${draft.question.length}/${QUESTION_MAX_LENGTH}`}>
        <textarea
          className="textarea"
          required
          maxLength={QUESTION_MAX_LENGTH}
          value={draft.question}
          placeholder="What do you want to ask?"
          onChange={(event) => change({ question: event.target.value })}
        />
      </Field>

      {draft.type === 'MC' && (
        <fieldset className="fieldset">
          <legend className="fieldset__legend">Choices</legend>
          <div className="choice-editor">
            {draft.choices.map((choice, index) => (
              <div key={index} className="choice-editor__row">
                <Field label={`Choice ${index + 1}`} error={errors.choices?.[index]}>
                  <input
                    className="input"
                    required
                    maxLength={CHOICE_MAX_LENGTH}
                    value={choice}
                    onChange={(event) => setChoice(index, event.target.value)}
                  />
                </Field>
                {draft.choices.length > MC_MIN_CHOICES && (
                  <Button
                    variant="ghost"
                    className="choice-editor__remove"
                    aria-label={`Remove choice ${index + 1}`}
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
                Add choice
              </Button>
            </div>
          )}
        </fieldset>
      )}

      {draft.type === 'RS' && <p className="muted">People answer on a slider from 1 to 10.</p>}

      {draft.type === 'N' && (
        <div className="form-grid">
          <Field label="Minimum" error={errors.min}>
            <input
              className="input"
              type="number"
              step={1}
              required
              value={draft.min}
              onChange={(event) => change({ min: event.target.value })}
            />
          </Field>
          <Field label="Maximum" error={errors.max}>
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
        <Field label="Tag (optional)" error={errors.tag} hint={`One tag, up to ${TAG_MAX_LENGTH} characters`}>
          <input
            className="input"
            maxLength={TAG_MAX_LENGTH}
            value={draft.tag}
            placeholder="e.g. travel"
            onChange={(event) => change({ tag: event.target.value })}
          />
        </Field>
        <Field label="Category (optional)">
          <NamedSelect
            value={draft.category}
            onChange={(category) => change({ category })}
            placeholder="No category"
            options={categories}
          />
        </Field>
      </div>

      {serverError && <Banner tone="error">{serverError}</Banner>}

      <div className="form-actions">
        <Button type="submit" variant="primary" pending={pending}>
          Publish
        </Button>
        <Button variant="ghost" onClick={onBack}>
          Back
        </Button>
      </div>
    </form>
  );
}

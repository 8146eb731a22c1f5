import type { Question } from '@pollscope/contract';
import { useId, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useFormat } from '../../i18n/format';
import { mcChoices, rangeOf } from '../../lib/question-shape';
import { Button } from '../ui/button';
import './answer-form.css';

interface AnswerFormProps {
  question: Pick<Question, 'id' | 'type' | 'choices' | 'title'>;
  submitLabel: string;
  pending?: boolean;
  /** A message from the caller, such as a wrong quiz answer or a failed vote. */
  error?: string | null;
  /** The answer chosen already, elsewhere (in an embed): the form starts with it, and sends it only when submitted. */
  initialChoice?: number | null;
  onSubmit: (choice: number) => void;
}

/** The input a question asks for (choices, a 1-to-10 slider or a number) and the button that sends it. */
export function AnswerForm({
  question,
  submitLabel,
  pending = false,
  error = null,
  initialChoice = null,
  onSubmit,
}: AnswerFormProps) {
  const intl = useIntl();
  const format = useFormat();
  const formId = useId();
  const range = rangeOf(question);
  const [choiceKey, setChoiceKey] = useState<number | null>(question.type === 'MC' ? initialChoice : null);
  const [rating, setRating] = useState(
    question.type === 'RS' && initialChoice !== null ? initialChoice : Math.floor(range.max / 2),
  );
  const [numberText, setNumberText] = useState(
    question.type === 'N' && initialChoice !== null ? String(initialChoice) : '',
  );
  const [inputError, setInputError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (question.type === 'MC') {
      if (choiceKey !== null) onSubmit(choiceKey);
      return;
    }
    if (question.type === 'RS') {
      onSubmit(rating);
      return;
    }
    if (numberText.trim() === '') {
      window.alert(intl.formatMessage({ id: 'answer.emptyNumber' }));
      return;
    }
    const value = Number(numberText);
    if (!Number.isFinite(value) || value < range.min || value > range.max) {
      setInputError(intl.formatMessage({ id: 'answer.outOfRange' }, range));
      return;
    }
    setInputError(null);
    onSubmit(value);
  }

  const message = inputError ?? error;
  const messageId = `${formId}-message`;
  const choices = mcChoices(question);

  return (
    <form
      className="answer-form"
      onSubmit={submit}
      noValidate
      aria-label={intl.formatMessage({ id: 'answer.form' }, { title: question.title })}
    >
      {question.type === 'MC' && (
        <fieldset className="fieldset">
          <legend className="sr-only">
            <FormattedMessage id="answer.choices" />
          </legend>
          <div className={choices.length === 3 ? 'choice-grid choice-grid--3' : 'choice-grid'}>
            {choices.map((choice) => (
              <label key={choice.key} className="choice-tile">
                <input
                  type="radio"
                  name={`${formId}-choice`}
                  value={choice.key}
                  checked={choiceKey === choice.key}
                  onChange={() => setChoiceKey(choice.key)}
                  disabled={pending}
                />
                <span>{choice.value}</span>
              </label>
            ))}
          </div>
        </fieldset>
      )}

      {question.type === 'RS' && (
        <div className="rating">
          <div className="rating__value" aria-hidden="true">
            {format.count(rating)}
          </div>
          <input
            className="rating__slider"
            type="range"
            min={range.min}
            max={range.max}
            step={1}
            value={rating}
            onChange={(event) => setRating(Number(event.target.value))}
            aria-label={intl.formatMessage({ id: 'answer.ratingLabel' }, range)}
            disabled={pending}
          />
          <div className="rating__ends" aria-hidden="true">
            <span>{format.count(range.min)}</span>
            <span>{format.count(range.max)}</span>
          </div>
        </div>
      )}

      {question.type === 'N' && (
        <div className="field">
          <label className="field__label" htmlFor={`${formId}-number`}>
            <FormattedMessage id="answer.numberLabel" values={range} />
          </label>
          <input
            id={`${formId}-number`}
            className="input number-answer"
            type="number"
            inputMode="decimal"
            min={range.min}
            max={range.max}
            step="any"
            value={numberText}
            onChange={(event) => {
              setNumberText(event.target.value);
              setInputError(null);
            }}
            aria-invalid={inputError ? true : undefined}
            aria-describedby={message ? messageId : undefined}
            disabled={pending}
          />
        </div>
      )}

      <div className="answer-form__footer">
        <div role="alert" id={messageId} className="answer-form__message">
          {message}
        </div>
        <Button
          type="submit"
          variant="primary"
          pending={pending}
          disabled={question.type === 'MC' && choiceKey === null}
        >
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

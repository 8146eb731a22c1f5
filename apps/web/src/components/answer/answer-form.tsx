import type { Question } from '@pollscope/contract';
import { useId, useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { mcChoices, rangeOf } from '../../lib/question-shape';
import { Button } from '../ui/button';
import { ChoiceInput, NumberInput, RatingInput } from './answer-inputs';
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

/** The answer being chosen in each kind of input, and the submit that checks it before sending it. */
function useAnswerDraft(
  question: AnswerFormProps['question'],
  initialChoice: number | null,
  onSubmit: (choice: number) => void,
) {
  const intl = useIntl();
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

  // A number being corrected no longer shows the error of the one before.
  function changeNumberText(text: string) {
    setNumberText(text);
    setInputError(null);
  }

  return {
    range,
    choiceKey,
    setChoiceKey,
    rating,
    setRating,
    numberText,
    changeNumberText,
    inputError,
    submit,
  };
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
  const formId = useId();
  const { range, choiceKey, setChoiceKey, rating, setRating, numberText, changeNumberText, inputError, submit } =
    useAnswerDraft(question, initialChoice, onSubmit);
  const message = inputError ?? error;
  const messageId = `${formId}-message`;

  return (
    <form
      className="answer-form"
      onSubmit={submit}
      noValidate
      aria-label={intl.formatMessage({ id: 'answer.form' }, { title: question.title })}
    >
      {question.type === 'MC' && (
        <ChoiceInput
          name={`${formId}-choice`}
          choices={mcChoices(question)}
          choice={choiceKey}
          disabled={pending}
          onChange={setChoiceKey}
        />
      )}
      {question.type === 'RS' && <RatingInput range={range} rating={rating} disabled={pending} onChange={setRating} />}
      {question.type === 'N' && (
        <NumberInput
          id={`${formId}-number`}
          range={range}
          text={numberText}
          invalid={inputError !== null}
          describedBy={message ? messageId : undefined}
          disabled={pending}
          onChange={changeNumberText}
        />
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

import { FormattedMessage, useIntl } from 'react-intl';
import { useFormat } from '../../i18n/format';
import type { McChoice, Range } from '../../lib/question-shape';

interface ChoiceInputProps {
  name: string;
  choices: McChoice[];
  choice: number | null;
  disabled: boolean;
  onChange: (choice: number) => void;
}

/** A multiple-choice question's answers, as one tile each. */
export function ChoiceInput({ name, choices, choice, disabled, onChange }: ChoiceInputProps) {
  return (
    <fieldset className="fieldset">
      <legend className="sr-only">
        <FormattedMessage id="answer.choices" />
      </legend>
      <div className={choices.length === 3 ? 'choice-grid choice-grid--3' : 'choice-grid'}>
        {choices.map((option) => (
          <label key={option.key} className="choice-tile">
            <input
              type="radio"
              name={name}
              value={option.key}
              checked={choice === option.key}
              onChange={() => onChange(option.key)}
              disabled={disabled}
            />
            <span>{option.value}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

interface RatingInputProps {
  range: Range;
  rating: number;
  disabled: boolean;
  onChange: (rating: number) => void;
}

/** A rating question's slider, with the value chosen written large above it. */
export function RatingInput({ range, rating, disabled, onChange }: RatingInputProps) {
  const intl = useIntl();
  const format = useFormat();
  return (
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
        onChange={(event) => onChange(Number(event.target.value))}
        aria-label={intl.formatMessage({ id: 'answer.ratingLabel' }, range)}
        disabled={disabled}
      />
      <div className="rating__ends" aria-hidden="true">
        <span>{format.count(range.min)}</span>
        <span>{format.count(range.max)}</span>
      </div>
    </div>
  );
}

interface NumberInputProps {
  id: string;
  range: Range;
  text: string;
  invalid: boolean;
  /** The id of the message that explains the field, while there is one. */
  describedBy: string | undefined;
  disabled: boolean;
  onChange: (text: string) => void;
}

/** A number question's field, labelled with the range it accepts. */
export function NumberInput({ id, range, text, invalid, describedBy, disabled, onChange }: NumberInputProps) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        <FormattedMessage id="answer.numberLabel" values={range} />
      </label>
      <input
        id={id}
        className="input number-answer"
        type="number"
        inputMode="decimal"
        min={range.min}
        max={range.max}
        step="any"
        value={text}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        disabled={disabled}
      />
    </div>
  );
}

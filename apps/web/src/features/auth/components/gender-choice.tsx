import { useId } from 'react';
import { FormattedMessage } from 'react-intl';
import type { MessageId } from '../../../i18n/i18n-provider';

const genders: readonly { value: 'F' | 'M'; label: MessageId }[] = [
  { value: 'F', label: 'register.genderFemale' },
  { value: 'M', label: 'register.genderMale' },
];

interface GenderChoiceProps {
  value: string;
  error?: string;
  onChange: (value: string) => void;
}

export function GenderChoice({ value, error, onChange }: GenderChoiceProps) {
  const id = useId();
  return (
    <fieldset className="fieldset" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="fieldset__legend">
        <FormattedMessage id="register.gender" />
      </legend>
      <div className="choice-pills">
        {genders.map((gender) => (
          <label key={gender.value} className="choice-pill">
            <input
              type="radio"
              name={`${id}-gender`}
              value={gender.value}
              checked={value === gender.value}
              onChange={() => onChange(gender.value)}
              required
            />
            <FormattedMessage id={gender.label} />
          </label>
        ))}
      </div>
      {error && (
        <span className="field__error" id={`${id}-error`}>
          {error}
        </span>
      )}
    </fieldset>
  );
}

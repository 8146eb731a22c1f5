import { useId } from 'react';

const genders = [
  { value: 'F', label: 'Female' },
  { value: 'M', label: 'Male' },
] as const;

interface GenderChoiceProps {
  value: string;
  error?: string;
  onChange: (value: string) => void;
}

export function GenderChoice({ value, error, onChange }: GenderChoiceProps) {
  const id = useId();
  return (
    <fieldset className="fieldset" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="fieldset__legend">Gender</legend>
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
            {gender.label}
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

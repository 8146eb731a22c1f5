import type { SelectHTMLAttributes } from 'react';

interface NamedSelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value'> {
  value: string;
  onChange: (value: string) => void;
  /** The first option, meaning none chosen. */
  placeholder: string;
  options: readonly { id: number; name: string }[];
}

/** A select of named things by id (countries, categories), with an option for none. */
export function NamedSelect({ value, onChange, placeholder, options, ...rest }: NamedSelectProps) {
  return (
    <select {...rest} className="select" value={value} onChange={(event) => onChange(event.target.value)}>
      <option value="">{placeholder}</option>
      {options.map((option) => (
        <option key={option.id} value={option.id}>
          {option.name}
        </option>
      ))}
    </select>
  );
}

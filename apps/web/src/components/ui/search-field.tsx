import type { FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { SearchIcon } from './icons';

interface SearchFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** Enter: search now. */
  onSubmit: (value: string) => void;
  /** What to type; screen readers name the field by `label` (a name other fields' labels do not contain). */
  placeholder: string;
  /** The field's name for screen readers; by default "Search" in the app's language. */
  label?: string;
  autoFocus?: boolean;
  className?: string;
}

/** A search box: a form of role search, with its icon and the browser's own clear button. */
export function SearchField({ value, onChange, onSubmit, placeholder, label, autoFocus, className }: SearchFieldProps) {
  const intl = useIntl();
  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit(value);
  }
  return (
    <form role="search" className={['search-field', className].filter(Boolean).join(' ')} onSubmit={submit}>
      <SearchIcon className="search-field__icon" />
      <input
        type="search"
        className="search-field__input"
        aria-label={label ?? intl.formatMessage({ id: 'ui.searchField.label' })}
        placeholder={placeholder}
        value={value}
        maxLength={100}
        enterKeyHint="search"
        autoFocus={autoFocus}
        onChange={(event) => onChange(event.target.value)}
      />
    </form>
  );
}

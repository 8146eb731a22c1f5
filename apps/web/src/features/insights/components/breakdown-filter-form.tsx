import {
  AGE_FILTER_DEFAULTS,
  type BreakdownFilterBody,
  type BreakdownFilters,
  type Country,
  type Gender,
} from '@pollscope/contract';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { NamedSelect } from '../../../components/ui/named-select';
import { useCountryName } from '../country-names';
import { AgeRangeSlider } from './age-range-slider';
import type { SplitFilter } from './breakdown-splits';

/** The voters' age span, or the no-filter defaults when there is none to go by. */
function ageBounds(filters: BreakdownFilters) {
  const { min, max } = filters.age;
  return min < max ? { min, max } : { ...AGE_FILTER_DEFAULTS };
}

/** The form's ages for a filter's: an open end at the voters' own bound, the lower at least a year below the upper. */
function agesOf(filter: SplitFilter, bounds: { min: number; max: number }) {
  const high = Math.min(bounds.max, Math.max(bounds.min + 1, filter.max_age ?? bounds.max));
  const low = Math.max(bounds.min, Math.min(high - 1, filter.min_age ?? bounds.min));
  return { low, high };
}

interface FilterFormProps {
  filters: BreakdownFilters;
  countries: Country[];
  /** What the form starts with: a group's filter picked from the splits, or none. */
  initial: SplitFilter;
  pending: boolean;
  onFilter: (body: BreakdownFilterBody) => void;
}

/** The form that filters the breakdown by gender, age range and country. */
export function BreakdownFilterForm({ filters, countries, initial, pending, onFilter }: FilterFormProps) {
  const bounds = ageBounds(filters);
  const [gender, setGender] = useState<Gender | ''>(initial.gender ?? '');
  const [age, setAge] = useState(() => agesOf(initial, bounds));
  const [country, setCountry] = useState(initial.country === undefined ? '' : String(initial.country));
  const intl = useIntl();
  const countryName = useCountryName(countries);
  const genderOptions: { value: Gender | ''; label: string }[] = [
    { value: '', label: intl.formatMessage({ id: 'insights.filters.anyGender' }) },
    ...filters.gender.map(({ value }) => ({
      value,
      label: intl.formatMessage({ id: 'insights.gender' }, { gender: value }),
    })),
  ];
  const collator = new Intl.Collator(intl.locale);
  const countryOptions = filters.country
    .map((id) => ({ id, name: countryName(id) }))
    .sort((a, b) => collator.compare(a.name, b.name));

  function submit(event: FormEvent) {
    event.preventDefault();
    // An untouched end of the age range means no limit on that side.
    onFilter({
      min_age: age.low === bounds.min ? AGE_FILTER_DEFAULTS.min : age.low,
      max_age: age.high === bounds.max ? AGE_FILTER_DEFAULTS.max : age.high,
      country: country === '' ? undefined : Number(country),
      gender: gender === '' ? undefined : gender,
    });
  }

  return (
    <form
      className="card form breakdown-filters"
      onSubmit={submit}
      aria-label={intl.formatMessage({ id: 'insights.filters.label' })}
    >
      <fieldset className="fieldset">
        <legend className="fieldset__legend">
          <FormattedMessage id="insights.filters.gender" />
        </legend>
        <div className="choice-pills">
          {genderOptions.map((option) => (
            <label key={option.value || 'any'} className="choice-pill">
              <input
                type="radio"
                name="gender"
                value={option.value}
                checked={gender === option.value}
                onChange={() => setGender(option.value)}
              />
              {option.label}
            </label>
          ))}
        </div>
      </fieldset>
      <AgeRangeSlider bounds={bounds} low={age.low} high={age.high} onChange={(low, high) => setAge({ low, high })} />
      <Field label={intl.formatMessage({ id: 'insights.filters.country' })}>
        <NamedSelect
          value={country}
          onChange={setCountry}
          placeholder={intl.formatMessage({ id: 'insights.filters.anyCountry' })}
          options={countryOptions}
        />
      </Field>
      <div className="form-actions">
        <Button type="submit" variant="primary" pending={pending}>
          <FormattedMessage id="insights.filters.submit" />
        </Button>
      </div>
    </form>
  );
}

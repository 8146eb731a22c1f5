import type { Country } from '@pollscope/contract';
import { useIntl } from 'react-intl';
import type { MessageId } from '../../i18n/catalogs';
import { say, type FormMessage } from '../../lib/form-message';
import { Field } from '../ui/field';
import { NamedSelect } from '../ui/named-select';

/** The fields that say who a person is, named as the requests name them. */
export type PersonField = 'firstName' | 'birthDate' | 'livingIn';

interface PersonFieldsProps {
  /** The catalog's words for each label and for the country not yet chosen: each form keeps its own. */
  labels: Record<PersonField | 'chooseCountry', MessageId>;
  values: Record<PersonField, string>;
  errors: Partial<Record<PersonField, FormMessage>>;
  change: (name: PersonField) => (value: string) => void;
  countries: Country[];
  /** The latest birth date the form takes, as YYYY-MM-DD; none when the server alone checks it. */
  latestBirthDate?: string;
}

/**
 * A person's first name, birth date and country, which their answers are counted by: the same
 * fields on signing up and in the account. They go inside the form's grid, beside its own fields.
 */
export function PersonFields({ labels, values, errors, change, countries, latestBirthDate }: PersonFieldsProps) {
  const intl = useIntl();
  return (
    <>
      <Field label={intl.formatMessage({ id: labels.firstName })} error={say(intl, errors.firstName)} wide>
        <input
          className="input"
          autoComplete="given-name"
          required
          value={values.firstName}
          onChange={(event) => change('firstName')(event.target.value)}
        />
      </Field>
      <Field label={intl.formatMessage({ id: labels.birthDate })} error={say(intl, errors.birthDate)}>
        <input
          className="input"
          type="date"
          max={latestBirthDate}
          required
          value={values.birthDate}
          onChange={(event) => change('birthDate')(event.target.value)}
        />
      </Field>
      <Field label={intl.formatMessage({ id: labels.livingIn })} error={say(intl, errors.livingIn)}>
        <NamedSelect
          required
          value={values.livingIn}
          onChange={change('livingIn')}
          placeholder={intl.formatMessage({ id: labels.chooseCountry })}
          options={countries}
        />
      </Field>
    </>
  );
}

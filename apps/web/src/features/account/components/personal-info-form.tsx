import { TOPIC_MAX_LENGTH, type Account, type Category, type Country } from '@pollscope/contract';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { PersonFields } from '../../../components/person/person-fields';
import { MessageSlot } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { NamedSelect } from '../../../components/ui/named-select';
import { useErrorText } from '../../../hooks/use-error-text';
import { useTimedMessage } from '../../../hooks/use-timed-message';
import { ApiError } from '../../../lib/api-client';
import { say, type FormMessage } from '../../../lib/form-message';
import { useNamedCategories } from '../../../lib/question-shape';
import { updateAccount } from '../api/update-account';
import { accountMessages } from '../form-messages';

/** Named as the request names them, so that the server's errors fall on the fields they name. */
interface Values {
  firstName: string;
  birthDate: string;
  livingIn: string;
  favoriteCategory: string;
  favoriteTopic: string;
}

type Errors = Partial<Record<keyof Values, FormMessage>>;

function validate(values: Values): Errors {
  const errors: Errors = {};
  if (values.firstName.trim() === '') errors.firstName = accountMessages.required;
  if (values.birthDate === '') errors.birthDate = accountMessages.required;
  if (values.livingIn === '') errors.livingIn = accountMessages.required;
  return errors;
}

/** The server's words, for the fields of this form it names. */
function fieldErrors(errors: Record<string, string>): Errors {
  const found: Errors = {};
  const fields: (keyof Values)[] = ['firstName', 'birthDate', 'livingIn', 'favoriteCategory', 'favoriteTopic'];
  for (const field of fields) if (errors[field]) found[field] = { text: errors[field] };
  return found;
}

interface PersonalInfoFieldsProps {
  values: Values;
  errors: Errors;
  change: (name: keyof Values) => (value: string) => void;
  countries: Country[];
  categories: Category[];
}

const personLabels = {
  firstName: 'account.personalInfo.firstName',
  birthDate: 'account.personalInfo.birthDate',
  livingIn: 'account.personalInfo.livingIn',
  chooseCountry: 'account.personalInfo.chooseCountry',
} as const;

/** The fields of the personal information form, each with its error under it. */
function PersonalInfoFields({ values, errors, change, countries, categories }: PersonalInfoFieldsProps) {
  const intl = useIntl();
  const namedCategories = useNamedCategories(categories);
  return (
    <div className="form-grid">
      <PersonFields labels={personLabels} values={values} errors={errors} change={change} countries={countries} />
      <Field
        label={intl.formatMessage({ id: 'account.personalInfo.favoriteCategory' })}
        error={say(intl, errors.favoriteCategory)}
      >
        <NamedSelect
          value={values.favoriteCategory}
          onChange={change('favoriteCategory')}
          placeholder={intl.formatMessage({ id: 'account.personalInfo.noCategory' })}
          options={namedCategories}
        />
      </Field>
      <Field
        label={intl.formatMessage({ id: 'account.personalInfo.favoriteTopic' })}
        error={say(intl, errors.favoriteTopic)}
      >
        <input
          className="input"
          maxLength={TOPIC_MAX_LENGTH}
          value={values.favoriteTopic}
          onChange={(event) => change('favoriteTopic')(event.target.value)}
        />
      </Field>
    </div>
  );
}

interface PersonalInfoFormProps {
  initial: Account;
  countries: Country[];
  categories: Category[];
}

export function PersonalInfoForm({ initial, countries, categories }: PersonalInfoFormProps) {
  const intl = useIntl();
  const errorText = useErrorText();
  const [values, setValues] = useState<Values>({
    firstName: initial.first_name,
    birthDate: initial.birthdate,
    livingIn: String(initial.country),
    favoriteCategory: initial.favorite_category === null ? '' : String(initial.favorite_category),
    favoriteTopic: initial.favorite_topic ?? '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useTimedMessage();
  const change = (name: keyof Values) => (value: string) => setValues((current) => ({ ...current, [name]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    const result = await updateAccount({
      firstName: values.firstName.trim(),
      birthDate: values.birthDate,
      livingIn: Number(values.livingIn),
      favoriteCategory: values.favoriteCategory === '' ? null : Number(values.favoriteCategory),
      favoriteTopic: values.favoriteTopic.trim() === '' ? null : values.favoriteTopic.trim(),
    });
    setPending(false);
    if (result instanceof ApiError) {
      setErrors(fieldErrors(result.errors));
      setMessage({ text: errorText(result), tone: 'error' });
    } else {
      setMessage({ text: say(intl, accountMessages.personalInfoSaved), tone: 'success' });
    }
  }

  return (
    <form
      className="form card"
      onSubmit={submit}
      noValidate
      aria-label={intl.formatMessage({ id: 'account.personalInfo.form' })}
    >
      <PersonalInfoFields
        values={values}
        errors={errors}
        change={change}
        countries={countries}
        categories={categories}
      />
      <MessageSlot message={message?.tone === 'error' ? message.text : null} tone="error" />
      <MessageSlot message={message?.tone === 'success' ? message.text : null} tone="success" />
      <div className="form-actions">
        <Button type="submit" variant="primary" pending={pending}>
          <FormattedMessage id="account.personalInfo.save" />
        </Button>
      </div>
    </form>
  );
}

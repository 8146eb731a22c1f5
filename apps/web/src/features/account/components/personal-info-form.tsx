import { TOPIC_MAX_LENGTH, type Account, type Category, type Country } from '@pollscope/contract';
import { useState, type FormEvent } from 'react';
import { MessageSlot } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { NamedSelect } from '../../../components/ui/named-select';
import { useTimedMessage } from '../../../hooks/use-timed-message';
import { ApiError } from '../../../lib/api-client';
import { updateAccount } from '../api/update-account';
import { accountMessages } from '../form-messages';

interface Values {
  firstName: string;
  birthDate: string;
  country: string;
  favoriteCategory: string;
  favoriteTopic: string;
}

type Errors = Partial<Record<keyof Values, string>>;

function validate(values: Values): Errors {
  const errors: Errors = {};
  if (values.firstName.trim() === '') errors.firstName = accountMessages.required;
  if (values.birthDate === '') errors.birthDate = accountMessages.required;
  if (values.country === '') errors.country = accountMessages.required;
  return errors;
}

/** The server names fields as the request does; the form names the country differently. */
function fieldErrors(errors: Record<string, string>): Errors {
  return {
    firstName: errors.firstName,
    birthDate: errors.birthDate,
    country: errors.livingIn,
    favoriteCategory: errors.favoriteCategory,
    favoriteTopic: errors.favoriteTopic,
  };
}

interface PersonalInfoFormProps {
  initial: Account;
  countries: Country[];
  categories: Category[];
}

export function PersonalInfoForm({ initial, countries, categories }: PersonalInfoFormProps) {
  const [values, setValues] = useState<Values>({
    firstName: initial.first_name,
    birthDate: initial.birthdate,
    country: String(initial.country),
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
      livingIn: Number(values.country),
      favoriteCategory: values.favoriteCategory === '' ? null : Number(values.favoriteCategory),
      favoriteTopic: values.favoriteTopic.trim() === '' ? null : values.favoriteTopic.trim(),
    });
    setPending(false);
    if (result instanceof ApiError) {
      setErrors(fieldErrors(result.errors));
      setMessage({ text: result.message, tone: 'error' });
    } else {
      setMessage({ text: accountMessages.personalInfoSaved, tone: 'success' });
    }
  }

  return (
    <form className="form card" onSubmit={submit} noValidate aria-label="Personal info">
      <div className="form-grid">
        <Field label="First name" error={errors.firstName} wide>
          <input
            className="input"
            autoComplete="given-name"
            required
            value={values.firstName}
            onChange={(event) => change('firstName')(event.target.value)}
          />
        </Field>
        <Field label="Birth date" error={errors.birthDate}>
          <input
            className="input"
            type="date"
            required
            value={values.birthDate}
            onChange={(event) => change('birthDate')(event.target.value)}
          />
        </Field>
        <Field label="Living in" error={errors.country}>
          <NamedSelect
            required
            value={values.country}
            onChange={change('country')}
            placeholder="Choose a country"
            options={countries}
          />
        </Field>
        <Field label="Favorite category (optional)" error={errors.favoriteCategory}>
          <NamedSelect
            value={values.favoriteCategory}
            onChange={change('favoriteCategory')}
            placeholder="None"
            options={categories}
          />
        </Field>
        <Field label="Favorite topic (optional)" error={errors.favoriteTopic}>
          <input
            className="input"
            maxLength={TOPIC_MAX_LENGTH}
            value={values.favoriteTopic}
            onChange={(event) => change('favoriteTopic')(event.target.value)}
          />
        </Field>
      </div>
      <MessageSlot message={message?.tone === 'error' ? message.text : null} tone="error" />
      <MessageSlot message={message?.tone === 'success' ? message.text : null} tone="success" />
      <div className="form-actions">
        <Button type="submit" variant="primary" pending={pending}>
          Save
        </Button>
      </div>
    </form>
  );
}

import { PASSWORD_MIN_LENGTH, type Country, type Gender, type RegisterBody } from '@pollscope/contract';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { PersonFields } from '../../../components/person/person-fields';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../hooks/use-error-text';
import { ApiError } from '../../../lib/api-client';
import { withDestination } from '../../../lib/destination';
import { say, type FormMessage } from '../../../lib/form-message';
import { register } from '../api/register';
import { authMessages } from '../form-messages';
import type { QuizAnswer } from '../quiz-answers';
import { GenderChoice } from './gender-choice';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type FieldName = 'firstName' | 'birthDate' | 'gender' | 'livingIn' | 'email' | 'password' | 'confirm';
type Values = Record<FieldName, string>;
type Errors = Partial<Record<FieldName, FormMessage>>;

function validate(values: Values): Errors {
  const errors: Errors = {};
  for (const name of Object.keys(values) as FieldName[]) {
    if (values[name].trim() === '') errors[name] = authMessages.required;
  }
  if (!errors.email && !EMAIL_PATTERN.test(values.email.trim())) errors.email = authMessages.email;
  if (!errors.password && values.password.length < PASSWORD_MIN_LENGTH) errors.password = authMessages.passwordLength;
  if (!errors.password && !errors.confirm && values.password !== values.confirm) errors.confirm = authMessages.mismatch;
  return errors;
}

/** The server's words, for the fields it names. */
function fieldErrors(errors: Record<string, string>): Errors {
  return Object.fromEntries(Object.entries(errors).map(([name, text]) => [name, { text }]));
}

interface FieldsProps {
  values: Values;
  errors: Errors;
  change: (name: FieldName) => (value: string) => void;
}

const personLabels = {
  firstName: 'register.firstName',
  birthDate: 'register.birthDate',
  livingIn: 'register.livingIn',
  chooseCountry: 'register.chooseCountry',
} as const;

/** Who the person is: their name, birth date, country and gender, which their answers are counted by. */
function AboutYouFields(props: FieldsProps & { countries: Country[] }) {
  const { values, errors, change } = props;
  const intl = useIntl();
  const today = new Date().toISOString().slice(0, 10);
  return (
    <>
      <div className="form-grid">
        <PersonFields {...props} labels={personLabels} latestBirthDate={today} />
      </div>
      <GenderChoice value={values.gender} error={say(intl, errors.gender)} onChange={change('gender')} />
    </>
  );
}

/** How the person signs in: their email and a password typed twice. */
function SignInFields({ values, errors, change }: FieldsProps) {
  const intl = useIntl();
  return (
    <>
      <Field label={intl.formatMessage({ id: 'register.email' })} error={say(intl, errors.email)}>
        <input
          className="input"
          type="email"
          autoComplete="email"
          required
          value={values.email}
          onChange={(event) => change('email')(event.target.value)}
        />
      </Field>
      <div className="form-grid">
        <Field
          label={intl.formatMessage({ id: 'register.password' })}
          error={say(intl, errors.password)}
          hint={intl.formatMessage({ id: 'register.passwordHint' }, { min: PASSWORD_MIN_LENGTH })}
        >
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            required
            value={values.password}
            onChange={(event) => change('password')(event.target.value)}
          />
        </Field>
        <Field label={intl.formatMessage({ id: 'register.confirmPassword' })} error={say(intl, errors.confirm)}>
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            required
            value={values.confirm}
            onChange={(event) => change('confirm')(event.target.value)}
          />
        </Field>
      </div>
    </>
  );
}

interface RegisterFormProps {
  countries: Country[];
  /** Answers from the visitor's quiz, which become their first votes. */
  quiz: QuizAnswer[];
  /** Where to go once signed up, which logging in instead leads to as well. */
  destination?: string | null;
  onRegistered: (token: string) => void;
}

export function RegisterForm({ countries, quiz, destination = null, onRegistered }: RegisterFormProps) {
  const intl = useIntl();
  const errorText = useErrorText();
  const [values, setValues] = useState<Values>({
    firstName: '',
    birthDate: '',
    gender: '',
    livingIn: '',
    email: '',
    password: '',
    confirm: '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const change = (name: FieldName) => (value: string) => setValues((current) => ({ ...current, [name]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(values);
    setErrors(found);
    setServerError(null);
    if (Object.keys(found).length > 0) return;
    const body: RegisterBody = {
      firstName: values.firstName.trim(),
      birthDate: values.birthDate,
      gender: values.gender as Gender,
      livingIn: Number(values.livingIn),
      email: values.email.trim(),
      password: values.password,
      ...(quiz.length > 0 && { quiz }),
    };
    setPending(true);
    const result = await register(body);
    setPending(false);
    if (result instanceof ApiError) {
      setServerError(errorText(result));
      setErrors(fieldErrors(result.errors));
    } else {
      onRegistered(result.token);
    }
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label={intl.formatMessage({ id: 'register.form' })}>
      {quiz.length > 0 && (
        <Banner tone="info">
          <FormattedMessage id="register.quizAnswers" values={{ count: quiz.length }} />
        </Banner>
      )}
      <AboutYouFields values={values} errors={errors} change={change} countries={countries} />
      <SignInFields values={values} errors={errors} change={change} />
      {serverError && <Banner tone="error">{serverError}</Banner>}
      <Button type="submit" variant="primary" block pending={pending}>
        <FormattedMessage id="register.submit" />
      </Button>
      <p className="auth-switch">
        <FormattedMessage
          id="register.haveAccount"
          values={{ link: (chunks) => <Link to={withDestination(paths.login.getHref(), destination)}>{chunks}</Link> }}
        />
      </p>
    </form>
  );
}

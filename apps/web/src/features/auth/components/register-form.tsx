import { PASSWORD_MIN_LENGTH, type Country, type Gender, type RegisterBody } from '@pollscope/contract';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { NamedSelect } from '../../../components/ui/named-select';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { withDestination } from '../../../lib/destination';
import { register } from '../api/register';
import type { QuizAnswer } from '../quiz-answers';
import { GenderChoice } from './gender-choice';

export const registerMessages = {
  required: 'Please fill in this field!',
  email: 'Please enter a valid email!',
  passwordLength: `Your password needs at least ${PASSWORD_MIN_LENGTH} characters!`,
  mismatch: 'Password and confirm not match!',
} as const;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type FieldName = 'firstName' | 'birthDate' | 'gender' | 'livingIn' | 'email' | 'password' | 'confirm';
type Values = Record<FieldName, string>;

function validate(values: Values): Partial<Values> {
  const errors: Partial<Values> = {};
  for (const name of Object.keys(values) as FieldName[]) {
    if (values[name].trim() === '') errors[name] = registerMessages.required;
  }
  if (!errors.email && !EMAIL_PATTERN.test(values.email.trim())) errors.email = registerMessages.email;
  if (!errors.password && values.password.length < PASSWORD_MIN_LENGTH)
    errors.password = registerMessages.passwordLength;
  if (!errors.password && !errors.confirm && values.password !== values.confirm)
    errors.confirm = registerMessages.mismatch;
  return errors;
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
  const [values, setValues] = useState<Values>({
    firstName: '',
    birthDate: '',
    gender: '',
    livingIn: '',
    email: '',
    password: '',
    confirm: '',
  });
  const [errors, setErrors] = useState<Partial<Values>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const change = (name: FieldName) => (value: string) => setValues((current) => ({ ...current, [name]: value }));
  const today = new Date().toISOString().slice(0, 10);

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
      setServerError(result.message);
      setErrors(result.errors as Partial<Values>);
    } else {
      onRegistered(result.token);
    }
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Sign up">
      {quiz.length > 0 && (
        <Banner tone="info">Your {quiz.length} quiz answers will be saved as your first votes.</Banner>
      )}
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
            max={today}
            required
            value={values.birthDate}
            onChange={(event) => change('birthDate')(event.target.value)}
          />
        </Field>
        <Field label="Living in" error={errors.livingIn}>
          <NamedSelect
            required
            value={values.livingIn}
            onChange={change('livingIn')}
            placeholder="Choose a country"
            options={countries}
          />
        </Field>
      </div>
      <GenderChoice value={values.gender} error={errors.gender} onChange={change('gender')} />
      <Field label="Email" error={errors.email}>
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
        <Field label="Password" error={errors.password} hint={`At least ${PASSWORD_MIN_LENGTH} characters`}>
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            required
            value={values.password}
            onChange={(event) => change('password')(event.target.value)}
          />
        </Field>
        <Field label="Confirm password" error={errors.confirm}>
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
      {serverError && <Banner tone="error">{serverError}</Banner>}
      <Button type="submit" variant="primary" block pending={pending}>
        Sign up
      </Button>
      <p className="auth-switch">
        Already have an account? <Link to={withDestination(paths.login.getHref(), destination)}>Log in</Link>
      </p>
    </form>
  );
}

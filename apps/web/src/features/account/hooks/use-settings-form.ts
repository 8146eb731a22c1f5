import type { Settings, SettingsUpdateBody } from '@pollscope/contract';
import { useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { useTimedMessage } from '../../../hooks/use-timed-message';
import { ApiError } from '../../../lib/api-client';
import { say, type FormMessage } from '../../../lib/form-message';
import { updateSettings } from '../api/update-settings';
import { accountMessages } from '../form-messages';
import { useInterfaceLanguage } from './use-interface-language';
import { useQuestionLanguages } from './use-question-languages';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface SettingsErrors {
  email?: FormMessage;
  password?: FormMessage;
  confirm?: FormMessage;
  current_password?: FormMessage;
  language?: FormMessage;
  question_languages?: FormMessage;
}

/** A new password typed twice, and the current one that a change of email or password asks for. */
export interface PasswordChange {
  password: string;
  confirm: string;
  currentPassword: string;
}

const noPasswordChange: PasswordChange = { password: '', confirm: '', currentPassword: '' };

/** A new email or password needs the current password: a session alone must not take the account over. */
const changesSignIn = (saved: Settings, email: string, password: string) =>
  email.trim().toLowerCase() !== saved.email || password !== '';

/** The same languages of questions, whatever their order: null (all) only equals null. */
const sameLanguages = (a: string[] | null, b: string[] | null) =>
  a === null || b === null ? a === b : [...a].sort().join() === [...b].sort().join();

interface Values extends PasswordChange {
  email: string;
  questionLanguages: string[] | null;
}

function validate(saved: Settings, values: Values): SettingsErrors {
  const { email, password, confirm, currentPassword } = values;
  const errors: SettingsErrors = {};
  if (email.trim() === '') errors.email = accountMessages.required;
  else if (!EMAIL_PATTERN.test(email.trim())) errors.email = accountMessages.email;
  if (password !== '') {
    if (password.length < accountMessages.passwordLength.values.min) errors.password = accountMessages.passwordLength;
    else if (confirm === '') errors.confirm = accountMessages.required;
    else if (password !== confirm) errors.confirm = accountMessages.mismatch;
  }
  if (changesSignIn(saved, email, password) && currentPassword === '')
    errors.current_password = accountMessages.required;
  if (values.questionLanguages?.length === 0) errors.question_languages = { id: 'account.settings.pickLanguage' };
  return errors;
}

/** The server's errors of the fields this form has, in its own words; null when it named none of them. */
function fieldErrors(error: ApiError): SettingsErrors | null {
  const found: SettingsErrors = {};
  for (const name of ['email', 'password', 'current_password', 'language', 'question_languages'] as const) {
    const text = error.errors[name];
    if (text) found[name] = { text };
  }
  return Object.keys(found).length > 0 ? found : null;
}

/**
 * The settings form's state and its Save: the values as typed, the settings as last saved, and
 * what the form says. The language of the interface is saved apart, as soon as it is chosen.
 */
export function useSettingsForm(initial: Settings) {
  const intl = useIntl();
  const [saved, setSaved] = useState(initial);
  const [email, setEmail] = useState(initial.email);
  const [notification, setNotification] = useState(initial.notification);
  const [passwords, setPasswords] = useState(noPasswordChange);
  const [errors, setErrors] = useState<SettingsErrors>({});
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useTimedMessage();
  const interfaceLanguage = useInterfaceLanguage(saved, setSaved, setMessage);
  const questionLanguages = useQuestionLanguages(saved);
  const needsCurrentPassword = changesSignIn(saved, email, passwords.password);
  const changePassword = (name: keyof PasswordChange) => (value: string) =>
    setPasswords((current) => ({ ...current, [name]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const { password, currentPassword } = passwords;
    const { language } = interfaceLanguage;
    const found = validate(saved, { email, ...passwords, questionLanguages: questionLanguages.chosen });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    const body: SettingsUpdateBody = {
      email: email.trim(),
      notification,
      ...(password && { password }),
      ...(needsCurrentPassword && { current_password: currentPassword }),
      // Sent when changed only: another device's change meanwhile stays.
      ...(language !== saved.language && { language }),
      ...(!sameLanguages(questionLanguages.chosen, saved.question_languages) && {
        question_languages: questionLanguages.chosen,
      }),
    };
    const result = await updateSettings(body);
    setPending(false);
    if (result instanceof ApiError) {
      const named = fieldErrors(result);
      if (named) setErrors(named);
      else setMessage({ text: say(intl, accountMessages.settingsFailed), tone: 'error' });
      return;
    }
    setSaved(result);
    setEmail(result.email);
    setNotification(result.notification);
    questionLanguages.setChosen(result.question_languages);
    setPasswords(noPasswordChange);
    setMessage({ text: say(intl, accountMessages.settingsSaved), tone: 'success' });
  }

  return {
    saved,
    errors,
    pending,
    message,
    submit,
    email,
    setEmail,
    notification,
    setNotification,
    passwords,
    changePassword,
    needsCurrentPassword,
    interfaceLanguage,
    questionLanguages,
  };
}

import { EMAIL_CONFIRM_MINUTES, type Settings, type SettingsUpdateBody } from '@pollscope/contract';
import { useId, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Banner, MessageSlot } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { useTimedMessage } from '../../../hooks/use-timed-message';
import { useLocale } from '../../../i18n/i18n-provider';
import { localeNames } from '../../../i18n/locale-names';
import { directionOf, isLocale, locales, type Locale } from '../../../i18n/locales';
import { ApiError } from '../../../lib/api-client';
import { say, type FormMessage } from '../../../lib/form-message';
import { interfaceLanguages, useLanguageName, useReaderLanguage } from '../../../lib/question-shape';
import { updateSettings } from '../api/update-settings';
import { accountMessages } from '../form-messages';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface Errors {
  email?: FormMessage;
  password?: FormMessage;
  confirm?: FormMessage;
  current_password?: FormMessage;
  language?: FormMessage;
  question_languages?: FormMessage;
}

/** A new email or password needs the current password: a session alone must not take the account over. */
const changesSignIn = (saved: Settings, email: string, password: string) =>
  email.trim().toLowerCase() !== saved.email || password !== '';

/** The same languages of questions, whatever their order: null (all) only equals null. */
const sameLanguages = (a: string[] | null, b: string[] | null) =>
  a === null || b === null ? a === b : [...a].sort().join() === [...b].sort().join();

interface Values {
  email: string;
  password: string;
  confirm: string;
  currentPassword: string;
  questionLanguages: string[] | null;
}

function validate(saved: Settings, values: Values): Errors {
  const { email, password, confirm, currentPassword } = values;
  const errors: Errors = {};
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
function fieldErrors(error: ApiError): Errors | null {
  const found: Errors = {};
  for (const name of ['email', 'password', 'current_password', 'language', 'question_languages'] as const) {
    const text = error.errors[name];
    if (text) found[name] = { text };
  }
  return Object.keys(found).length > 0 ? found : null;
}

/**
 * Email, notifications, the language of the interface, the languages of questions and an
 * optional new password; a new email waits for the link mailed to it. The language switches the
 * app at once and is kept on the account at once, as the switcher at the foot of every screen
 * does; the rest waits for Save.
 */
export function SettingsForm({ initial }: { initial: Settings }) {
  const intl = useIntl();
  const id = useId();
  const { locale, setLocale } = useLocale();
  const languageName = useLanguageName();
  const readerLanguage = useReaderLanguage();
  const [saved, setSaved] = useState(initial);
  const [email, setEmail] = useState(initial.email);
  const [notification, setNotification] = useState(initial.notification);
  const [language, setLanguage] = useState<Locale>(initial.language);
  const [questionLanguages, setQuestionLanguages] = useState(initial.question_languages);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useTimedMessage();
  const needsCurrentPassword = changesSignIn(saved, email, password);

  // The switcher at the foot of the screen changes the language too: the select follows it.
  const [localeShown, setLocaleShown] = useState(locale);
  if (locale !== localeShown) {
    setLocaleShown(locale);
    if (isLocale(locale)) setLanguage(locale);
  }

  // The interface's languages, then any other the person chose (from elsewhere, or before).
  const offered = [
    ...new Set([...interfaceLanguages, ...(saved.question_languages ?? []), ...(questionLanguages ?? [])]),
  ];

  async function chooseLanguage(next: Locale) {
    setLanguage(next);
    setLocale(next);
    const result = await updateSettings({ email: saved.email, notification: saved.notification, language: next });
    if (result instanceof ApiError) setMessage({ text: say(intl, accountMessages.settingsFailed), tone: 'error' });
    else setSaved((current) => ({ ...current, language: result.language }));
  }

  function onlySome(only: boolean) {
    // The reader's own language is the likeliest first choice.
    setQuestionLanguages(only ? (saved.question_languages ?? [readerLanguage]) : null);
  }

  function toggleLanguage(code: string, on: boolean) {
    setQuestionLanguages((current) => {
      const chosen = new Set(current ?? []);
      if (on) chosen.add(code);
      else chosen.delete(code);
      return offered.filter((offer) => chosen.has(offer));
    });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(saved, { email, password, confirm, currentPassword, questionLanguages });
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
      ...(!sameLanguages(questionLanguages, saved.question_languages) && { question_languages: questionLanguages }),
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
    setQuestionLanguages(result.question_languages);
    setPassword('');
    setConfirm('');
    setCurrentPassword('');
    setMessage({ text: say(intl, accountMessages.settingsSaved), tone: 'success' });
  }

  const questionLanguagesError = say(intl, errors.question_languages);
  return (
    <form
      className="form card"
      onSubmit={submit}
      noValidate
      aria-label={intl.formatMessage({ id: 'account.settings.form' })}
    >
      <Field label={intl.formatMessage({ id: 'account.settings.email' })} error={say(intl, errors.email)}>
        <input
          className="input"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </Field>
      {saved.pending_email && (
        <Banner tone="info">
          <span>
            <FormattedMessage
              id="account.settings.pendingEmail"
              values={{
                pending: saved.pending_email,
                email: saved.email,
                minutes: EMAIL_CONFIRM_MINUTES,
                strong: (chunks) => <strong>{chunks}</strong>,
              }}
            />
          </span>
        </Banner>
      )}
      <fieldset className="fieldset">
        <legend className="fieldset__legend">
          <FormattedMessage id="account.settings.notifications" />
        </legend>
        <div className="choice-pills">
          {[true, false].map((value) => (
            <label key={String(value)} className="choice-pill">
              <input
                type="radio"
                name="notification"
                checked={notification === value}
                onChange={() => setNotification(value)}
              />
              {value ? <FormattedMessage id="account.settings.yes" /> : <FormattedMessage id="account.settings.no" />}
            </label>
          ))}
        </div>
      </fieldset>
      <Field
        label={intl.formatMessage({ id: 'account.settings.language' })}
        hint={intl.formatMessage({ id: 'account.settings.languageHint' })}
        error={say(intl, errors.language)}
      >
        <select
          className="select"
          value={language}
          onChange={(event) => {
            const chosen = event.target.value;
            if (isLocale(chosen)) void chooseLanguage(chosen);
          }}
        >
          {locales.map((option) => (
            // Each language named in itself, as the switcher names it: whoever reads none of the current one finds theirs.
            <option key={option} value={option} lang={option} dir={directionOf(option)}>
              {localeNames[option]}
            </option>
          ))}
        </select>
      </Field>
      <fieldset
        className="fieldset"
        aria-describedby={[`${id}-languages-hint`, questionLanguagesError && `${id}-languages-error`]
          .filter(Boolean)
          .join(' ')}
      >
        <legend className="fieldset__legend">
          <FormattedMessage id="account.settings.questionLanguages" />
        </legend>
        <span className="field__hint" id={`${id}-languages-hint`}>
          <FormattedMessage id="account.settings.questionLanguagesHint" />
        </span>
        <div className="choice-pills">
          {[false, true].map((only) => (
            <label key={String(only)} className="choice-pill">
              <input
                type="radio"
                name={`${id}-question-languages`}
                checked={(questionLanguages !== null) === only}
                onChange={() => onlySome(only)}
              />
              {only ? (
                <span id={`${id}-only`}>
                  <FormattedMessage id="account.settings.onlyLanguages" />
                </span>
              ) : (
                <FormattedMessage id="account.settings.allLanguages" />
              )}
            </label>
          ))}
        </div>
        {questionLanguages !== null && (
          <div className="choice-pills" role="group" aria-labelledby={`${id}-only`}>
            {offered.map((code) => (
              <label key={code} className="choice-pill">
                <input
                  type="checkbox"
                  checked={questionLanguages.includes(code)}
                  onChange={(event) => toggleLanguage(code, event.target.checked)}
                />
                {languageName(code)}
              </label>
            ))}
          </div>
        )}
        {questionLanguagesError && (
          <span className="field__error" id={`${id}-languages-error`}>
            {questionLanguagesError}
          </span>
        )}
      </fieldset>
      <div className="form-grid">
        <Field
          label={intl.formatMessage({ id: 'account.settings.newPassword' })}
          error={say(intl, errors.password)}
          hint={intl.formatMessage({ id: 'account.settings.newPasswordHint' })}
        >
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </Field>
        <Field label={intl.formatMessage({ id: 'account.settings.confirmPassword' })} error={say(intl, errors.confirm)}>
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            required={password !== ''}
            value={confirm}
            onChange={(event) => setConfirm(event.target.value)}
          />
        </Field>
      </div>
      {needsCurrentPassword && (
        <Field
          label={intl.formatMessage({ id: 'account.settings.currentPassword' })}
          error={say(intl, errors.current_password)}
          hint={say(intl, accountMessages.currentPasswordHint)}
        >
          <input
            className="input"
            type="password"
            autoComplete="current-password"
            required
            value={currentPassword}
            onChange={(event) => setCurrentPassword(event.target.value)}
          />
        </Field>
      )}
      <MessageSlot message={message?.tone === 'error' ? message.text : null} tone="error" />
      <MessageSlot message={message?.tone === 'success' ? message.text : null} tone="success" />
      <div className="form-actions">
        <Button type="submit" variant="primary" pending={pending}>
          <FormattedMessage id="account.settings.save" />
        </Button>
      </div>
    </form>
  );
}

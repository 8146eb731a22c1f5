import { EMAIL_CONFIRM_MINUTES, type Settings } from '@pollscope/contract';
import { FormattedMessage, useIntl } from 'react-intl';
import { Banner } from '../../../components/ui/banner';
import { Field } from '../../../components/ui/field';
import { localeNames } from '../../../i18n/locale-names';
import { directionOf, isLocale, locales, type Locale } from '../../../i18n/locales';

/** The new email that waits for the link mailed to it, while the saved one still signs in. */
export function PendingEmailBanner({ saved }: { saved: Settings }) {
  return (
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
  );
}

/** Whether the person gets their notifications by email too. */
export function NotificationChoice({ value, onChange }: { value: boolean; onChange: (value: boolean) => void }) {
  return (
    <fieldset className="fieldset">
      <legend className="fieldset__legend">
        <FormattedMessage id="account.settings.notifications" />
      </legend>
      <div className="choice-pills">
        {[true, false].map((option) => (
          <label key={String(option)} className="choice-pill">
            <input type="radio" name="notification" checked={value === option} onChange={() => onChange(option)} />
            {option ? <FormattedMessage id="account.settings.yes" /> : <FormattedMessage id="account.settings.no" />}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

interface InterfaceLanguageFieldProps {
  language: Locale;
  error: string | undefined;
  onChoose: (language: Locale) => void;
}

/** The language of the interface, each named in itself. */
export function InterfaceLanguageField({ language, error, onChoose }: InterfaceLanguageFieldProps) {
  const intl = useIntl();
  return (
    <Field
      label={intl.formatMessage({ id: 'account.settings.language' })}
      hint={intl.formatMessage({ id: 'account.settings.languageHint' })}
      error={error}
    >
      <select
        className="select"
        value={language}
        onChange={(event) => {
          const chosen = event.target.value;
          if (isLocale(chosen)) onChoose(chosen);
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
  );
}

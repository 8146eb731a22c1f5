import { useId } from 'react';
import { FormattedMessage } from 'react-intl';
import { ApiError, apiGet, apiPost } from '../../lib/api-client';
import { apiPath } from '../../lib/api-path';
import { getToken } from '../../lib/auth-token';
import { useLocale } from '../../i18n/i18n-provider';
import { localeNames } from '../../i18n/locale-names';
import { directionOf, isLocale, locales, type Locale } from '../../i18n/locales';
import { GlobeIcon } from '../ui/icons';

/** A signed-in person's choice is their account's too, which their mail and every device follow (CONTRACT §7). */
async function saveToAccount(language: Locale): Promise<void> {
  const settings = await apiGet(apiPath('/api/auth/settings/'));
  if (settings instanceof ApiError) return;
  await apiPost('/api/auth/settings/', {
    body: { email: settings.email, notification: settings.notification, language },
  });
}

/**
 * The language of the whole app, on every screen: each language named in itself, so that
 * whoever reads none of the current one still finds theirs. Choosing one switches at once and
 * is remembered for a year (the `pollscope_lang` cookie).
 */
export function LanguageSwitcher() {
  const { locale, setLocale, switching } = useLocale();
  const id = useId();
  return (
    <div className="language-switcher">
      <GlobeIcon className="language-switcher__icon" />
      <label htmlFor={id} className="language-switcher__label">
        <FormattedMessage id="language.label" />
      </label>
      <select
        id={id}
        className="language-switcher__select"
        // The pseudo-locale is English's underneath, and offered by no one.
        value={isLocale(locale) ? locale : 'en'}
        aria-busy={switching || undefined}
        onChange={(event) => {
          const chosen = event.target.value;
          if (!isLocale(chosen)) return;
          setLocale(chosen);
          if (getToken()) void saveToAccount(chosen);
        }}
      >
        {locales.map((option) => (
          <option key={option} value={option} lang={option} dir={directionOf(option)}>
            {localeNames[option]}
          </option>
        ))}
      </select>
    </div>
  );
}

import type { Settings } from '@pollscope/contract';
import { useState, type Dispatch, type SetStateAction } from 'react';
import { useIntl } from 'react-intl';
import type { TimedMessage } from '../../../hooks/use-timed-message';
import { useLocale } from '../../../i18n/i18n-provider';
import { isLocale, type Locale } from '../../../i18n/locales';
import { ApiError } from '../../../lib/api-client';
import { say } from '../../../lib/form-message';
import { updateSettings } from '../api/update-settings';
import { accountMessages } from '../form-messages';

/**
 * The language of the interface in the settings: choosing one switches the app and keeps it on
 * the account at once, as the switcher at the foot of every screen does, without waiting for Save.
 */
export function useInterfaceLanguage(
  saved: Settings,
  setSaved: Dispatch<SetStateAction<Settings>>,
  setMessage: (message: TimedMessage) => void,
) {
  const intl = useIntl();
  const { locale, setLocale } = useLocale();
  const [language, setLanguage] = useState<Locale>(saved.language);

  // The switcher at the foot of the screen changes the language too: the select follows it.
  const [localeShown, setLocaleShown] = useState(locale);
  if (locale !== localeShown) {
    setLocaleShown(locale);
    if (isLocale(locale)) setLanguage(locale);
  }

  async function choose(next: Locale) {
    setLanguage(next);
    setLocale(next);
    const result = await updateSettings({ email: saved.email, notification: saved.notification, language: next });
    if (result instanceof ApiError) setMessage({ text: say(intl, accountMessages.settingsFailed), tone: 'error' });
    else setSaved((current) => ({ ...current, language: result.language }));
  }

  return { language, choose };
}

import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { IntlProvider } from 'react-intl';
import { loadedMessages, loadMessages, type MessageId, type Messages } from './catalogs';
import en from './catalogs/en.json';
import { browserLocale, defaultLocale, directionOf, rememberLocale, type Locale } from './locales';

declare global {
  // Every id given to react-intl is one of the English catalog's: a typo fails the type check.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace FormatjsIntl {
    interface Message {
      ids: MessageId;
    }
  }
}

export type { MessageId };

/**
 * The locale the app starts in: in the browser, the one negotiated from the cookie and the
 * browser's languages; the server's renderer gives its own, its catalog loaded first
 * (app/first-screen-on-server.tsx).
 */
export const InitialLocale = createContext<() => Locale>(browserLocale);

interface LocaleState {
  locale: Locale;
  /** Switches the whole app once the locale's catalog is here, and keeps the choice in the cookie. */
  setLocale: (locale: Locale) => void;
  /** A switch waiting for its catalog. */
  switching: boolean;
}

const LocaleContext = createContext<LocaleState>({ locale: defaultLocale, setLocale: () => {}, switching: false });

export function useLocale(): LocaleState {
  return useContext(LocaleContext);
}

/** A locale's catalog if it is here: English always is, with the frame. */
function messagesOf(locale: Locale): Messages | undefined {
  return locale === 'en' ? en : loadedMessages(locale);
}

interface I18nProviderProps {
  children: ReactNode;
  /** Shown while the first locale's catalog downloads (the router asks for it beside the frame's code). */
  fallback?: ReactNode;
}

/**
 * The app's language: react-intl's provider with the locale's catalog, the switch between
 * locales, and the page's `<html lang dir>` kept in step. A switch keeps the current language on
 * screen until the new one's catalog is here; a catalog that cannot be downloaded leaves English.
 */
export function I18nProvider({ children, fallback = null }: I18nProviderProps) {
  const [locale, setLocaleNow] = useState(useContext(InitialLocale));
  const [switching, setSwitching] = useState(false);
  // The latest locale asked for: a slower catalog asked for before it does not switch back.
  const wanted = useRef(locale);
  const messages = messagesOf(locale);

  const switchTo = useCallback((next: Locale) => {
    wanted.current = next;
    if (next === 'en' || messagesOf(next)) {
      setSwitching(false);
      setLocaleNow(next);
      return;
    }
    setSwitching(true);
    loadMessages(next).then(
      () => {
        if (wanted.current !== next) return;
        setSwitching(false);
        setLocaleNow(next);
      },
      () => {
        if (wanted.current !== next) return;
        setSwitching(false);
        setLocaleNow((current) => (messagesOf(current) ? current : defaultLocale));
      },
    );
  }, []);

  // The first locale's catalog, when the router's download of it has not arrived yet.
  useEffect(() => {
    if (!messages) switchTo(locale);
  }, [locale, messages, switchTo]);

  // With the texts it applies to, before the browser paints them: no frame of Arabic laid out left to right.
  useLayoutEffect(() => {
    if (!messages) return;
    document.documentElement.lang = locale;
    document.documentElement.dir = directionOf(locale);
  }, [locale, messages]);

  const setLocale = useCallback(
    (next: Locale) => {
      rememberLocale(next);
      switchTo(next);
    },
    [switchTo],
  );
  const state = useMemo(() => ({ locale, setLocale, switching }), [locale, setLocale, switching]);

  if (!messages) return fallback;
  return (
    <LocaleContext value={state}>
      <IntlProvider locale={locale} defaultLocale={defaultLocale} messages={messages}>
        {children}
      </IntlProvider>
    </LocaleContext>
  );
}

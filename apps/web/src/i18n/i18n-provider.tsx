import {
  createContext,
  use,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { IntlProvider } from 'react-intl';
import { ApiError, apiGet } from '../lib/api-client';
import { apiPath } from '../lib/api-path';
import { isSignedIn, onSignInChange } from '../lib/auth-token';
import { tellWorkerLanguage } from '../service-worker/tell-worker';
import { loadedFirstMessages, loadedMessages, loadMessages, type LoadedMessages, type MessageId } from './catalogs';
import {
  browserLocale,
  defaultLocale,
  directionOf,
  pseudoLocale,
  rememberLocale,
  type AppLocale,
  type Locale,
} from './locales';

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
export const InitialLocale = createContext<() => AppLocale>(browserLocale);

interface LocaleState {
  locale: AppLocale;
  /** Switches the whole app once the locale's catalog is here, and keeps the choice in the cookie. */
  setLocale: (locale: AppLocale) => void;
  /** A switch waiting for its catalog. */
  switching: boolean;
}

const LocaleContext = createContext<LocaleState>({ locale: defaultLocale, setLocale: () => {}, switching: false });

export function useLocale(): LocaleState {
  return useContext(LocaleContext);
}

interface I18nProviderProps {
  children: ReactNode;
  /** Shown while the first locale's catalog downloads (the router asks for it beside the frame's code). */
  fallback?: ReactNode;
}

/** The locale whose dates and numbers a locale shows: the pseudo-locale's are English's, which Intl knows. */
const intlLocale = (locale: AppLocale): Locale => (locale === pseudoLocale ? defaultLocale : locale);

/** Switches to the account's own language when someone signs in, or starts signed in. */
function useAccountLanguage(wanted: RefObject<AppLocale>, switchTo: (next: AppLocale) => void) {
  // Signing in brings the account's own language, which wins over the visitor's (CONTRACT.md §7); so does starting
  // signed in, where the page's language may be the visitor's (a device that kept its token but not the session cookie).
  useEffect(() => {
    const followAccount = () => {
      // The pseudo-locale, a test's choice, stays whatever the account says.
      if (!isSignedIn() || wanted.current === pseudoLocale) return;
      void apiGet(apiPath('/api/auth/settings/')).then((settings) => {
        if (!(settings instanceof ApiError) && settings.language !== wanted.current) switchTo(settings.language);
      });
    };
    followAccount();
    return onSignInChange(followAccount);
  }, [wanted, switchTo]);
}

/**
 * The app's language: react-intl's provider with the locale's catalog, the switch between
 * locales, and the page's `<html lang dir>` kept in step. A switch keeps the current language on
 * screen until the new one's catalog is here; a catalog that cannot be downloaded leaves the
 * language on screen.
 */
export function I18nProvider({ children, fallback = null }: I18nProviderProps) {
  const initialLocale = useContext(InitialLocale);
  // The locale on screen with its catalog, set together: a catalog that arrives between the first
  // render and the effect that asks for it still renders the screen.
  const [{ locale, messages }, setShown] = useState(() => {
    const first = initialLocale();
    return { locale: first, messages: loadedFirstMessages(first) };
  });
  const [switching, setSwitching] = useState(false);
  // The latest locale asked for: a slower catalog asked for before it does not switch back.
  const wanted = useRef(locale);

  const switchTo = useCallback((next: AppLocale) => {
    const show = (shown: AppLocale) => setShown({ locale: shown, messages: loadedMessages(shown) });
    wanted.current = next;
    if (loadedMessages(next)) {
      setSwitching(false);
      show(next);
      return;
    }
    setSwitching(true);
    loadMessages(next).then(
      () => {
        if (wanted.current !== next) return;
        setSwitching(false);
        show(next);
      },
      () => {
        if (wanted.current !== next) return;
        setSwitching(false);
        // The language on screen stays; with none on screen yet, English (asked for by the effect below).
        setShown((current) =>
          current.messages ? current : { locale: defaultLocale, messages: loadedMessages(defaultLocale) },
        );
      },
    );
  }, []);

  useAccountLanguage(wanted, switchTo);

  // The first locale's catalog, when the router's download of it has not arrived yet.
  useEffect(() => {
    if (!messages) switchTo(locale);
  }, [locale, messages, switchTo]);

  // With the texts it applies to, before the browser paints them: no frame of Arabic laid out left to right.
  useLayoutEffect(() => {
    if (!messages) return;
    document.documentElement.lang = locale;
    document.documentElement.dir = directionOf(locale);
    tellWorkerLanguage(locale);
  }, [locale, messages]);

  const setLocale = useCallback(
    (next: AppLocale) => {
      rememberLocale(next);
      switchTo(next);
    },
    [switchTo],
  );
  const state = useMemo(() => ({ locale, setLocale, switching }), [locale, setLocale, switching]);

  if (!messages) return fallback;
  return (
    <LocaleContext value={state}>
      <LocaleIntl locale={locale} messages={messages}>
        {children}
      </LocaleIntl>
    </LocaleContext>
  );
}

function LocaleIntl({
  locale,
  messages,
  children,
}: {
  locale: AppLocale;
  messages: LoadedMessages;
  children: ReactNode;
}) {
  return (
    <IntlProvider locale={intlLocale(locale)} defaultLocale={defaultLocale} messages={messages}>
      {children}
    </IntlProvider>
  );
}

/**
 * Its screen with the whole catalog of the language on screen. The frame starts with the first
 * part of it, the texts of the frame and the first screens (build/catalogs.ts): any other screen
 * waits for the rest, as a navigation waits for the next screen's code.
 */
export function WholeCatalog({ children }: { children: ReactNode }) {
  const { locale } = useLocale();
  return (
    <LocaleIntl locale={locale} messages={use(loadMessages(locale))}>
      {children}
    </LocaleIntl>
  );
}

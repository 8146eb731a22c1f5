import type { Locale } from './locales';

/**
 * Each language named in itself, as the switcher offers it: apart from locales.ts, which the
 * first screen's code carries, as only the switcher needs the names.
 */
export const localeNames: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  'pt-BR': 'Português (Brasil)',
  ja: '日本語',
  ar: 'العربية',
};

import { afterEach, describe, expect, it } from 'vitest';
import { LANGUAGE_COOKIE as CONTRACT_COOKIE, PSEUDO_LOCALE, UI_LOCALES } from '@pollscope/contract';
import {
  browserLocale,
  directionOf,
  LANGUAGE_COOKIE,
  localeInCookies,
  locales,
  matchLocale,
  negotiateLocale,
  pseudoLocale,
} from './locales';

describe('negotiating the locale', () => {
  afterEach(() => {
    document.cookie = `${LANGUAGE_COOKIE}=; Max-Age=0; Path=/`;
  });

  it('takes the first of the browser’s languages that matches, by its language when not exactly', () => {
    expect(negotiateLocale({ languages: ['pt-PT', 'en'] })).toBe('pt-BR');
    expect(negotiateLocale({ languages: ['de-AT'] })).toBe('de');
    expect(negotiateLocale({ languages: ['xx', 'ja-JP', 'fr'] })).toBe('ja');
    expect(negotiateLocale({ languages: ['PT-br'] })).toBe('pt-BR');
  });

  it('falls back to English', () => {
    expect(negotiateLocale({ languages: ['xx'] })).toBe('en');
    expect(negotiateLocale({})).toBe('en');
    expect(matchLocale('zh-Hant-TW')).toBeNull();
  });

  it('lets the switcher’s cookie win over the browser’s languages, unless it names no locale', () => {
    expect(negotiateLocale({ cookies: 'a=1; pollscope_lang=ar; b=2', languages: ['de-AT'] })).toBe('ar');
    expect(negotiateLocale({ cookies: 'pollscope_lang=pt-BR', languages: ['en'] })).toBe('pt-BR');
    expect(negotiateLocale({ cookies: 'pollscope_lang=klingon', languages: ['de-AT'] })).toBe('de');
    expect(localeInCookies('other_lang=fr')).toBeNull();
  });

  it('reads this browser’s cookie and languages', () => {
    document.cookie = `${LANGUAGE_COOKIE}=fr; Path=/`;
    expect(browserLocale()).toBe('fr');
  });

  it('has the contract’s locales, cookie and pseudo-locale, written again to keep the contract out of the entry', () => {
    expect(locales).toEqual(UI_LOCALES);
    expect(LANGUAGE_COOKIE).toBe(CONTRACT_COOKIE);
    expect(pseudoLocale).toBe(PSEUDO_LOCALE);
    expect(locales.filter((locale) => directionOf(locale) === 'rtl')).toEqual(['ar']);
  });
});

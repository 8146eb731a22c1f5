import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import english from './catalogs/en.json';
import { pseudoLocalized, pseudoLocalizeMessage } from './pseudo-locale';

const format = (text: string, values?: Record<string, string | number>) =>
  new IntlMessageFormat(pseudoLocalizeMessage(text), 'en').format(values) as string;

describe('the pseudo-locale', () => {
  it('accents every letter of a text, brackets it and makes it a third longer', () => {
    const text = format('Log in');
    expect(text).toBe('⟦Ļöĝ îñ ~~⟧');
    expect(text).not.toMatch(/[A-Za-z]/);
  });

  it('keeps placeholders, plurals and their values as English has them', () => {
    const votes = '{count, plural, one {# vote} other {# votes}} by {name}';
    expect(format(votes, { count: 1, name: 'Ada' })).toBe('⟦1 ṽöţé ƀý Ada ~~~⟧');
    expect(format(votes, { count: 1234, name: 'Ada' })).toBe('⟦1,234 ṽöţéš ƀý Ada ~~~⟧');
  });

  it('has every message of the English catalog', async () => {
    expect(Object.keys(await pseudoLocalized()).sort()).toEqual(Object.keys(english).sort());
  });
});

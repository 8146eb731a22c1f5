import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { UI_LOCALES } from '@pollscope/contract';
import { describe, expect, it } from 'vitest';
import { catalogs, message } from './messages.js';

/** The names of a message's arguments, in plurals, selects and tags too. */
function placeholders(elements: MessageFormatElement[], names = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (
      element.type === TYPE.argument ||
      element.type === TYPE.number ||
      element.type === TYPE.date ||
      element.type === TYPE.time
    )
      names.add(element.value);
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      names.add(element.value);
      for (const option of Object.values(element.options)) placeholders(option.value, names);
    }
    if (element.type === TYPE.tag) {
      names.add(element.value);
      placeholders(element.children, names);
    }
  }
  return names;
}

const sorted = (names: Set<string>) => [...names].sort();
const { en } = catalogs;

describe('the server’s catalogs', () => {
  for (const locale of UI_LOCALES) {
    it(`${locale} has exactly the ids of en, each a valid ICU message with the same placeholders`, () => {
      const catalog = catalogs[locale];
      expect(Object.keys(catalog).sort()).toEqual(Object.keys(en).sort());
      for (const [id, text] of Object.entries(catalog)) {
        const english = en[id as keyof typeof en];
        expect(text.trim(), `${locale} ${id}`).not.toBe('');
        const elements = parse(text, { requiresOtherClause: true });
        expect(sorted(placeholders(elements)), `${locale} ${id}`).toEqual(sorted(placeholders(parse(english))));
      }
    });
  }

  it('format with FormatJS in each locale: plurals by its rules, French with its no-break space before a colon', () => {
    expect(message('en', 'mail.passwordReset.intro', { minutes: 1 })).toContain('works once, for 1 minute,');
    expect(message('de', 'mail.passwordReset.intro', { minutes: 30 })).toContain('30 Minuten lang');
    expect(message('ar', 'mail.passwordReset.intro', { minutes: 2 })).toContain('لمدة دقيقتين');
    expect(message('fr', 'mail.passwordReset.notYou')).toMatch(/^Si ce n’était pas vous, ignorez cet e-mail\u00A0:/);
    expect(message('ja', 'mail.passwordReset.greeting', { name: '花子' })).toBe('花子さん');
  });
});

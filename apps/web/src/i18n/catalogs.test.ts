import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { locales } from './locales';

/**
 * The catalogs' check (docs/i18n.md), run with the component tests: every locale has every
 * message of the English catalog and no other, each parses as ICU MessageFormat with the same
 * placeholders as the English one, and the code uses every message and no id the English catalog
 * lacks.
 */

type Catalog = Record<string, string>;

const here = path.dirname(fileURLToPath(import.meta.url));
const sourceRoot = path.resolve(here, '..');

function readCatalogs(): Record<string, Catalog> {
  return Object.fromEntries(
    locales.map((locale) => [
      locale,
      JSON.parse(fs.readFileSync(path.join(here, 'catalogs', `${locale}.json`), 'utf8')) as Catalog,
    ]),
  );
}

/** The app's code, by path: every module but the tests and their helpers. */
function readSources(): Record<string, string> {
  return Object.fromEntries(
    fs
      .readdirSync(sourceRoot, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.startsWith('testing'))
      .map((file) => [file, fs.readFileSync(path.join(sourceRoot, file), 'utf8')]),
  );
}

/** Each placeholder of a message, with its kind: `{count, plural, …}` is `count:plural`, `<b>…</b>` is `b:tag`. */
function placeholders(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    into.add(`${element.value}:${TYPE[element.type]}`);
    if (element.type === TYPE.select || element.type === TYPE.plural)
      for (const option of Object.values(element.options)) placeholders(option.value, into);
    if (element.type === TYPE.tag) placeholders(element.children, into);
  }
  return into;
}

/**
 * The message ids the code names: a quoted string in one of the catalog's namespaces (`'nav.feed'`
 * where `nav.` begins some id of the English catalog), or any dotted string given as an `id`.
 */
function idsInSources(sources: Record<string, string>, namespaces: Set<string>): Map<string, string> {
  const used = new Map<string, string>();
  for (const [file, code] of Object.entries(sources)) {
    for (const [, , id] of code.matchAll(/(['"`])([A-Za-z][\w-]*(?:\.[\w-]+)+)\1/g))
      if (namespaces.has(id.split('.')[0])) used.set(id, file);
    for (const [, , id] of code.matchAll(/\bid(?:=\{?|:\s*)(['"`])([\w-]+(?:\.[\w-]+)+)\1/g)) used.set(id, file);
  }
  return used;
}

/** Every problem of the catalogs against the code, in words; none when all is well. */
function catalogProblems(catalogs: Record<string, Catalog>, sources: Record<string, string>): string[] {
  const problems: string[] = [];
  const english = catalogs.en;
  const parsed = (locale: string, id: string): Set<string> | null => {
    try {
      return placeholders(parse(catalogs[locale][id]));
    } catch (error) {
      problems.push(`${locale}: "${id}" is not ICU MessageFormat (${(error as Error).message})`);
      return null;
    }
  };
  const englishPlaceholders = new Map(Object.keys(english).map((id) => [id, parsed('en', id)]));
  for (const locale of Object.keys(catalogs).filter((name) => name !== 'en')) {
    const catalog = catalogs[locale];
    for (const id of Object.keys(english)) if (!(id in catalog)) problems.push(`${locale}: "${id}" is missing`);
    for (const id of Object.keys(catalog)) {
      if (!(id in english)) {
        problems.push(`${locale}: "${id}" is not in the English catalog`);
        continue;
      }
      if (typeof catalog[id] !== 'string' || !catalog[id].trim()) {
        problems.push(`${locale}: "${id}" is empty`);
        continue;
      }
      const own = parsed(locale, id);
      const expected = englishPlaceholders.get(id);
      if (own && expected && [...own].sort().join() !== [...expected].sort().join())
        problems.push(
          `${locale}: "${id}" has placeholders {${[...own].join(', ')}}, English {${[...expected].join(', ')}}`,
        );
    }
  }
  const namespaces = new Set(Object.keys(english).map((id) => id.split('.')[0]));
  const used = idsInSources(sources, namespaces);
  for (const [id, file] of used) if (!(id in english)) problems.push(`${file} uses "${id}", which en has not`);
  for (const id of Object.keys(english)) if (!used.has(id)) problems.push(`en: "${id}" is used nowhere in the code`);
  return problems;
}

describe('the message catalogs', () => {
  it('have every message in every locale, as ICU MessageFormat, each used by the code', () => {
    const catalogs = readCatalogs();
    expect(Object.keys(catalogs)).toEqual([...locales]);
    expect(catalogProblems(catalogs, readSources())).toEqual([]);
  });

  describe('the check', () => {
    const catalogs = {
      en: { 'nav.feed': 'Feed', 'nav.count': '{count, plural, one {# vote} other {# votes}} by <b>{name}</b>' },
      de: { 'nav.feed': 'Feed', 'nav.count': '{count, plural, one {# Stimme} other {# Stimmen}} von <b>{name}</b>' },
    };
    const code = { 'a.tsx': `<FormattedMessage id="nav.feed" />; formatMessage({ id: 'nav.count' })` };

    it('finds nothing in catalogs that agree', () => {
      expect(catalogProblems(catalogs, code)).toEqual([]);
    });

    it('finds a message missing from a locale', () => {
      const { 'nav.feed': _, ...rest } = catalogs.de;
      expect(catalogProblems({ ...catalogs, de: rest }, code)).toEqual(['de: "nav.feed" is missing']);
    });

    it('finds a message the code does not use, and one it uses that English lacks', () => {
      expect(catalogProblems(catalogs, { 'a.tsx': `formatMessage({ id: 'nav.count' }); ['nav.feeds']` })).toEqual([
        'a.tsx uses "nav.feeds", which en has not',
        'en: "nav.feed" is used nowhere in the code',
      ]);
    });

    it('finds a message that does not parse, and placeholders that differ from English', () => {
      const de = { 'nav.feed': 'Feed {', 'nav.count': '{anzahl, plural, other {# Stimmen}} von <b>{name}</b>' };
      const problems = catalogProblems({ ...catalogs, de }, code);
      expect(problems).toHaveLength(2);
      expect(problems[0]).toMatch(/^de: "nav.feed" is not ICU MessageFormat/);
      expect(problems[1]).toMatch(/^de: "nav.count" has placeholders \{anzahl:plural, b:tag, name:argument\}/);
    });
  });
});

import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import type { UiLocale } from '@pollscope/contract';
import ar from './catalogs/ar.json' with { type: 'json' };
import de from './catalogs/de.json' with { type: 'json' };
import en from './catalogs/en.json' with { type: 'json' };
import es from './catalogs/es.json' with { type: 'json' };
import fr from './catalogs/fr.json' with { type: 'json' };
import it from './catalogs/it.json' with { type: 'json' };
import ja from './catalogs/ja.json' with { type: 'json' };
import ptBR from './catalogs/pt-BR.json' with { type: 'json' };

/**
 * The server's texts in every UI locale (docs/i18n.md, On the server): one ICU message catalog per locale under
 * catalogs/, with the ids of `en`, which is the source every other is translated from (catalogs.test.ts checks them).
 * Small enough to be compiled into the server and parsed once per locale, at its first use.
 */
export type MessageId = keyof typeof en;
export type Catalog = Record<MessageId, string>;

export const catalogs: Record<UiLocale, Catalog> = { en, de, fr, es, it, 'pt-BR': ptBR, ja, ar };

const cache = createIntlCache();
const intls = new Map<UiLocale, IntlShape<string>>();

/** FormatJS's formatter for `locale`, made once; a message missing from its catalog would fall back to English's. */
export function intlFor(locale: UiLocale): IntlShape<string> {
  let intl = intls.get(locale);
  if (!intl) {
    intl = createIntl(
      {
        locale,
        defaultLocale: 'en',
        messages: catalogs[locale],
        // Every catalog has every id (catalogs.test.ts): the fallback exists for safety, not for use.
        onError: () => undefined,
      },
      cache,
    );
    intls.set(locale, intl);
  }
  return intl;
}

/** One message of `locale` with its values: the text the person reads. */
export function message(
  locale: UiLocale,
  id: MessageId,
  values?: Record<string, string | number | boolean | null | undefined | Date>,
): string {
  return intlFor(locale).formatMessage({ id, defaultMessage: en[id] }, values);
}

import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

/**
 * The pseudo-locale's catalog (locales.ts, `en-XA`), made from the English one when it is first
 * asked for: each letter of the texts accented, each text a third longer and bracketed, while
 * placeholders, plurals and tags stay as they are. A word a person reads without accents was not
 * taken from a catalog; a bracket missing at a text's end shows where it was cut off.
 */

const accented: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((letter, index) => [
    letter,
    [...'åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ'][index],
  ]),
);

/** About a third more: translations run that much longer than English, German and French most. */
const LENGTHENING = 1 / 3;

function accent(text: string): string {
  return [...text].map((character) => accented[character] ?? character).join('');
}

/** How many letters a text shows at most (its longest plural or choice): what the lengthening pads by. */
function letterCount(elements: MessageFormatElement[]): number {
  return elements.reduce((count, element) => {
    if (element.type === TYPE.literal) return count + element.value.replace(/\s/g, '').length;
    if (element.type === TYPE.tag) return count + letterCount(element.children);
    if (element.type === TYPE.plural || element.type === TYPE.select)
      return count + Math.max(...Object.values(element.options).map((option) => letterCount(option.value)));
    return count;
  }, 0);
}

function pseudoElements(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((element) => {
    if (element.type === TYPE.literal) return { ...element, value: accent(element.value) };
    if (element.type === TYPE.tag) return { ...element, children: pseudoElements(element.children) };
    if (element.type === TYPE.plural || element.type === TYPE.select)
      return {
        ...element,
        options: Object.fromEntries(
          Object.entries(element.options).map(([key, option]) => [
            key,
            { ...option, value: pseudoElements(option.value) },
          ]),
        ),
      };
    return element;
  });
}

export function pseudoLocalizeMessage(message: string | MessageFormatElement[]): MessageFormatElement[] {
  const elements = typeof message === 'string' ? parse(message) : message;
  const padding = '~'.repeat(Math.ceil(letterCount(elements) * LENGTHENING));
  return [
    { type: TYPE.literal, value: '⟦' },
    ...pseudoElements(elements),
    { type: TYPE.literal, value: padding ? ` ${padding}⟧` : '⟧' },
  ];
}

/**
 * Every message of the English catalog, by its id, pseudo-localized: from its texts in the tests,
 * from the messages the build parsed already in the app (which has no parser, build/production-aliases.ts).
 */
export async function pseudoLocalized(): Promise<Record<string, MessageFormatElement[]>> {
  const { default: english } = (await import('./catalogs/en.json')) as {
    default: Record<string, string | MessageFormatElement[]>;
  };
  return Object.fromEntries(Object.entries(english).map(([id, message]) => [id, pseudoLocalizeMessage(message)]));
}

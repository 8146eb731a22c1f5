import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { directionOf, type Question, type UiLocale } from '@pollscope/contract';
import { catalogs, intlFor, message, type MessageId } from '../../i18n/messages.js';
import { escapeHtml, pageStart } from '../../lib/html.js';
import type { EmbedFiles } from './files.js';

/**
 * The embed's page (CONTRACT.md §7, Embeds): what a visitor may see of a question and the controls to answer it, in the
 * visitor's language. The built script (apps/web/src/embed) brings it to life: the live count, the voting window, the
 * result once the person voted; its texts are written here, from the server's catalogs, into `data-` attributes.
 */

/** Where the number a template counts goes, in the templates the script fills in. */
const SLOT = '#';

/**
 * A plural message's forms as templates, by plural category (`one`, `few`, …) or exact count (`=0`), `#` standing
 * for the number: the script picks one with `Intl.PluralRules` for each new count, so that every language counts as its
 * catalog says.
 */
export function pluralForms(locale: UiLocale, id: MessageId): Record<string, string> {
  const plural = parse(catalogs[locale][id]).find((element) => element.type === TYPE.plural);
  if (!plural) throw new Error(`${locale} ${id} is not a plural message`);
  const text = (elements: MessageFormatElement[]): string =>
    elements.map((element) => (element.type === TYPE.literal ? element.value : SLOT)).join('');
  return Object.fromEntries(Object.entries(plural.options).map(([key, option]) => [key, text(option.value)]));
}

const attribute = (value: string) => escapeHtml(value);
const number = (locale: UiLocale, value: number) => intlFor(locale).formatNumber(value);

/** The brand's mark, the app's (apps/web/public/favicon.svg), drawn inline: the page loads no picture. */
const mark =
  '<svg class="mark" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round" aria-hidden="true"><circle cx="11" cy="11" r="7"/><path d="m20 20-4-4"/></svg>';

/** What people typed (the question, its choices) runs in the direction of its own first letter, whatever the page's. */
function controls(question: Question, locale: UiLocale): string {
  if (Array.isArray(question.choices)) {
    const items = question.choices
      .map(
        ({ key, value }) =>
          `<li><button type="button" class="choice" data-choice="${key}"><span class="label" dir="auto">${escapeHtml(value)}</span><span class="figure"></span></button></li>`,
      )
      .join('');
    return `<ul class="choices" aria-label="${attribute(message(locale, 'share.choices'))}">${items}</ul>`;
  }
  const { min, max } = question.choices;
  if (question.type === 'RS') {
    const buttons = Array.from({ length: max - min + 1 }, (_, index) => {
      const value = min + index;
      return `<button type="button" class="choice" data-choice="${value}">${number(locale, value)}</button>`;
    }).join('');
    const label = message(locale, 'share.scale.rating', { min, max });
    return `<div class="scale" role="group" aria-label="${attribute(label)}">${buttons}</div>`;
  }
  const label = message(locale, 'share.scale.number', { min, max });
  return `<form class="number"><label class="hint" for="value">${escapeHtml(label)}</label><div class="row"><input id="value" name="value" type="number" inputmode="decimal" step="any" min="${min}" max="${max}" required><button type="submit" class="vote">${escapeHtml(message(locale, 'embed.vote'))}</button></div></form>`;
}

function document(locale: UiLocale, title: string, files: EmbedFiles | null, body: string): string {
  const head = files
    ? `<link rel="stylesheet" href="${attribute(files.style)}">\n<script type="module" src="${attribute(files.script)}"></script>\n`
    : '';
  return `${pageStart(title, '<meta name="robots" content="noindex">\n', locale, directionOf(locale))}
${head}</head>
<body>
${body}
</body>
</html>
`;
}

export interface EmbeddedQuestion {
  question: Question;
  /** The question's page on the site, PUBLIC_URL/q/{id}, which the brand links to. */
  url: string;
  /** The built script and style sheet, or null where the web app is not built. */
  files: EmbedFiles | null;
}

/**
 * The page for a question: its text, the controls to answer it, how many answered (never how they split: the page is
 * the same for everyone, and only the script shows a result, to the person who just voted) and the brand.
 */
export function embedPage({ question, url, files }: EmbeddedQuestion, locale: UiLocale): string {
  const texts = {
    'data-votes': JSON.stringify(pluralForms(locale, 'share.votes')),
    'data-average': message(locale, 'embed.average', { average: SLOT }),
    'data-your-answer': message(locale, 'embed.yourAnswer'),
    'data-your-value': message(locale, 'embed.yourValue', { value: SLOT }),
    'data-unavailable': message(locale, 'embed.unavailable'),
  };
  const data = Object.entries(texts)
    .map(([name, value]) => ` ${name}="${attribute(value)}"`)
    .join('');
  const body = `<main class="embed" data-question="${question.id}" data-type="${question.type}"${data}>
<h1 class="title" dir="auto">${escapeHtml(question.title)}</h1>
${controls(question, locale)}
<p class="result" hidden></p>
<footer class="foot"><p class="count" aria-live="polite">${escapeHtml(message(locale, 'share.votes', { count: question.vote_count }))}</p><a class="brand" href="${attribute(url)}" target="_blank" rel="noopener">${mark}<span>Pollscope</span></a></footer>
</main>`;
  return document(locale, message(locale, 'share.page.title', { title: question.title }), files, body);
}

/** What a removed, withheld or unknown question's embed shows, in the visitor's language. */
export function unavailablePage(locale: UiLocale, files: EmbedFiles | null): string {
  const text = message(locale, 'embed.unavailable');
  return document(
    locale,
    text,
    files,
    `<main class="embed embed--gone"><p class="gone">${escapeHtml(text)}</p></main>`,
  );
}

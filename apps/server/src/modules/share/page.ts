import {
  directionOf,
  displayId,
  OEMBED_LINK_TYPE,
  OEMBED_PATH,
  type Question,
  type UiLocale,
} from '@pollscope/contract';
import { intlFor, message, type MessageId } from '../../i18n/messages.js';
import { escapeHtml, pageStart } from '../../lib/html.js';
import { dateLocale } from '../mail/index.js';
import { CARD_HEIGHT, CARD_WIDTH } from './card-image.js';
import { choiceValues, previewDescription, scaleText } from './wording.js';

/** The web app's screen of a question, where the button to answer leads. */
const appQuestionPath = (id: number) => `/question/${id}`;

/**
 * The quiz, which sends a visitor on to sign up and then to `destination`; the app sends someone
 * already signed in straight there. The links are the same for everyone, whoever is signed in: only the page's
 * language differs (by the Vary of its route).
 */
const answerHref = (destination: string) => `/quiz?next=${encodeURIComponent(destination)}`;
const logInHref = (destination: string) => `/login?next=${encodeURIComponent(destination)}`;

const typeLabels: Record<Question['type'], MessageId> = {
  MC: 'share.type.mc',
  RS: 'share.type.rs',
  N: 'share.type.n',
};

/** A day in UTC as `locale` writes it: "5 Mar 2025", "5. März 2025", "2025年3月5日". */
const dayOf = (locale: UiLocale, iso: string) =>
  intlFor(locale)
    .formatters.getDateTimeFormat(dateLocale(locale), {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    })
    .format(new Date(iso));

/** HTML a tag of a message became, kept from escaping. */
interface Markup {
  html: string;
}
const isMarkup = (part: unknown): part is Markup => typeof part === 'object' && part !== null && 'html' in part;
const joined = (parts: unknown[]) =>
  parts.map((part) => (isMarkup(part) ? part.html : escapeHtml(String(part)))).join('');

/**
 * A message of `locale` as HTML: its text and values escaped, and each of its tags (`<login>…</login>`) the element
 * `tags` makes of its content.
 */
function htmlMessage(
  locale: UiLocale,
  id: MessageId,
  values: Record<string, string | number> = {},
  tags: Record<string, (inner: string) => string> = {},
): string {
  const elements = Object.fromEntries(
    Object.entries(tags).map(([name, make]) => [name, (chunks: unknown[]): Markup => ({ html: make(joined(chunks)) })]),
  );
  // FormatJS hands back what the tags made, objects included, among the message's texts (its types say strings only).
  const format = intlFor(locale).formatMessage as unknown as (
    descriptor: { id: MessageId },
    values: Record<string, unknown>,
  ) => unknown;
  const parts = format({ id }, { ...values, ...elements });
  return joined(Array.isArray(parts) ? parts : [parts]);
}

/** The web app's look (apps/web/src/styles/global.css), light and dark, for a page that loads none of its code. */
const style = `
:root{color-scheme:light dark;--bg:#f5f4fa;--surface:#fff;--surface-2:#f0eef8;--text:#1b1928;--muted:#5c5870;--border:#e2dfee;--border-strong:#c9c4dc;--accent:#5434e8;--accent-hover:#4424d4;--accent-text:#4b2ad9;--on-accent:#fff;--accent-soft:#ece8ff;--focus:#5434e8;--shadow:0 1px 2px rgb(24 20 48/6%),0 4px 16px rgb(24 20 48/6%)}
@media (prefers-color-scheme:dark){:root{--bg:#100e17;--surface:#1a1724;--surface-2:#242031;--text:#f0eef7;--muted:#aaa5bd;--border:#2f2a40;--border-strong:#4a4463;--accent:#8f7bff;--accent-hover:#a292ff;--accent-text:#b2a5ff;--on-accent:#120d26;--accent-soft:#2a2450;--focus:#b2a5ff;--shadow:0 1px 2px rgb(0 0 0/40%),0 4px 16px rgb(0 0 0/25%)}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;background:var(--bg);color:var(--text);font:1rem/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;-webkit-font-smoothing:antialiased;overflow-wrap:anywhere}
a{color:var(--accent-text);text-decoration:none}a:hover{text-decoration:underline}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px;border-radius:6px}
.top{height:60px;display:flex;align-items:center;justify-content:center;border-bottom:1px solid var(--border)}
.logo{display:inline-flex;align-items:center;gap:.55rem;color:var(--text);font-weight:850;letter-spacing:.14em;font-size:1.05rem}.logo:hover{text-decoration:none}
.mark{display:grid;place-items:center;width:2.1rem;height:2.1rem;border-radius:10px;background:linear-gradient(135deg,var(--accent),#8a5cf6);color:#fff}
.mark svg{width:1.2rem;height:1.2rem}
main{max-width:720px;margin:0 auto;padding:1.5rem 1rem 3rem;display:grid;gap:1rem}
.card{background:var(--surface);border:1px solid var(--border);border-radius:16px;box-shadow:var(--shadow);padding:1.25rem;display:grid;gap:.9rem}
.meta{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem;margin:0;color:var(--muted);font-size:.92rem}
.avatar{display:grid;place-items:center;width:1.9rem;height:1.9rem;border-radius:50%;background:var(--accent-soft);color:var(--accent-text);font-weight:800}
.author{color:var(--text);font-weight:650}
.tag{padding:.1rem .55rem;border-radius:999px;background:var(--surface-2);color:var(--accent-text);font-weight:650}
h1{margin:0;font-size:1.5rem;line-height:1.25;font-weight:750;letter-spacing:-.01em}
.sub{margin:0;color:var(--muted);font-size:.9rem}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;letter-spacing:.02em}
.choices{list-style:none;margin:0;padding:0;display:grid;gap:.5rem;grid-template-columns:repeat(2,minmax(0,1fr))}
.choices--3{grid-template-columns:repeat(3,minmax(0,1fr))}
.choices li,.scale{padding:.7rem 1rem;border:1px solid var(--border-strong);border-radius:12px;font-weight:600}
.scale{margin:0;background:var(--accent-soft);border-color:transparent;color:var(--accent-text)}
.votes{margin:0;font-weight:650}.votes span{color:var(--muted);font-weight:400}
.actions{display:flex;flex-wrap:wrap;align-items:center;gap:.75rem 1rem}
.btn{display:inline-flex;align-items:center;justify-content:center;min-height:2.75rem;padding:.6rem 1.4rem;border-radius:999px;background:var(--accent);color:var(--on-accent);font-weight:700}
.btn:hover{background:var(--accent-hover);text-decoration:none}
.note{margin:0;color:var(--muted);font-size:.92rem}.note a{text-decoration:underline;text-underline-offset:2px}
@media (max-width:520px){.choices,.choices--3{grid-template-columns:minmax(0,1fr)}.card{padding:1rem}.btn{width:100%}}
`;

const searchIcon =
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round" aria-hidden="true"><circle cx="11" cy="11" r="7"/><path d="m20 20-4-4"/></svg>';

function htmlDocument({
  locale,
  title,
  head = '',
  body,
}: {
  locale: UiLocale;
  title: string;
  head?: string;
  body: string;
}): string {
  return `${pageStart(message(locale, 'share.page.title', { title }), '', locale, directionOf(locale))}
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
${head}<style>${style}</style>
</head>
<body>
<header class="top"><a class="logo" href="/" aria-label="${escapeHtml(message(locale, 'site.home'))}"><span class="mark">${searchIcon}</span><span>POLLSCOPE</span></a></header>
<main>
${body}
</main>
</body>
</html>
`;
}

export interface SharedQuestion {
  question: Question;
  /** Where the page is, PUBLIC_URL/q/{id}. */
  url: string;
  /** The picture link previews show. */
  imageUrl: string;
}

/** Open Graph and Twitter card tags: what a link to the page shows where it is posted, its frame in `locale`. */
function previewTags({ question, url, imageUrl }: SharedQuestion, locale: UiLocale): string {
  const description = previewDescription(question, locale);
  const tags: [string, string, string][] = [
    ['name', 'description', description],
    ['property', 'og:type', 'website'],
    ['property', 'og:site_name', 'POLLSCOPE'],
    ['property', 'og:title', question.title],
    ['property', 'og:description', description],
    ['property', 'og:url', url],
    ['property', 'og:image', imageUrl],
    ['property', 'og:image:type', 'image/png'],
    ['property', 'og:image:width', String(CARD_WIDTH)],
    ['property', 'og:image:height', String(CARD_HEIGHT)],
    ['property', 'og:image:alt', message(locale, 'share.preview.imageAlt', { title: question.title })],
    ['name', 'twitter:card', 'summary_large_image'],
    ['name', 'twitter:title', question.title],
    ['name', 'twitter:description', description],
    ['name', 'twitter:image', imageUrl],
  ];
  // oEmbed's discovery link: a consumer given the page's address (Discourse, WordPress) finds the embed's frame there.
  const oembed = `${new URL(OEMBED_PATH, url).href}?url=${encodeURIComponent(url)}`;
  const discovery = `<link rel="alternate" type="${OEMBED_LINK_TYPE}" href="${escapeHtml(oembed)}" title="${escapeHtml(question.title)}">`;
  return `<link rel="canonical" href="${escapeHtml(url)}">\n${discovery}\n${tags.map(([attribute, name, content]) => `<meta ${attribute}="${name}" content="${escapeHtml(content)}">`).join('\n')}\n`;
}

function answersOf(question: Question, locale: UiLocale): string {
  const choices = choiceValues(question);
  if (choices.length === 0) return `<p class="scale">${escapeHtml(scaleText(question, locale) ?? '')}</p>`;
  const items = choices.map((choice) => `<li>${escapeHtml(choice)}</li>`).join('');
  return `<ul class="${choices.length === 3 ? 'choices choices--3' : 'choices'}" aria-label="${escapeHtml(message(locale, 'share.choices'))}">${items}</ul>`;
}

/**
 * The page a shared link opens, for anyone and without signing in, its frame in the visitor's language (`locale`): the
 * question, its choices and how many answered, never how they split, which only those who answer see.
 */
export function sharePage(shared: SharedQuestion, locale: UiLocale): string {
  const { question } = shared;
  const tag = question.tags[0]?.name;
  const meta = [
    `<span class="avatar" aria-hidden="true">${escapeHtml(question.user_name.slice(0, 1).toUpperCase())}</span>`,
    `<span>${htmlMessage(locale, 'share.askedBy', { name: question.user_name }, { author: (name) => `<span class="author">${name}</span>` })}</span>`,
    `<span aria-hidden="true">·</span>`,
    `<time datetime="${escapeHtml(question.published_at)}">${escapeHtml(dayOf(locale, question.published_at))}</time>`,
    ...(tag ? [`<span class="tag">#${escapeHtml(tag)}</span>`] : []),
  ].join('');
  const sub = [
    `<span class="mono">${displayId('QID', question.qid)}</span>`,
    escapeHtml(message(locale, typeLabels[question.type])),
    ...(question.category ? [escapeHtml(question.category.name)] : []),
  ].join('<span aria-hidden="true"> · </span>');
  const destination = appQuestionPath(question.id);
  const votes = htmlMessage(
    locale,
    'share.votesAndCall',
    { count: question.vote_count },
    { muted: (text) => `<span>${text}</span>` },
  );
  const logIn = htmlMessage(
    locale,
    'share.alreadyMember',
    {},
    { login: (text) => `<a href="${escapeHtml(logInHref(destination))}">${text}</a>` },
  );
  const body = `<article class="card" aria-labelledby="question-title">
<p class="meta">${meta}</p>
<h1 id="question-title">${escapeHtml(question.title)}</h1>
<p class="sub">${sub}</p>
${answersOf(question, locale)}
<p class="votes">${votes}</p>
<div class="actions"><a class="btn" href="${escapeHtml(answerHref(destination))}">${escapeHtml(message(locale, 'share.answer'))}</a><p class="note">${logIn}</p></div>
</article>`;
  return htmlDocument({ locale, title: question.title, head: previewTags(shared, locale), body });
}

/** A page that says a question is not there, with a link home, in `locale`. */
function noQuestionPage(locale: UiLocale, title: MessageId, text: MessageId): string {
  const heading = message(locale, title);
  const home = (inner: string) => `<a href="/">${inner}</a>`;
  return htmlDocument({
    locale,
    title: heading,
    head: '<meta name="robots" content="noindex">\n',
    body: `<article class="card"><h1>${escapeHtml(heading)}</h1><p class="note">${htmlMessage(locale, text, {}, { home })}</p></article>`,
  });
}

/** The page of a question moderators withheld (410): it was there, and is no longer shown. */
export const withheldQuestionPage = (locale: UiLocale): string =>
  noQuestionPage(locale, 'share.withheld.title', 'share.withheld.text');

/** What a link to a question that does not exist opens. */
export const missingQuestionPage = (locale: UiLocale): string =>
  noQuestionPage(locale, 'share.missing.title', 'share.missing.text');

import { displayId, type Question } from '@pollscope/contract';
import { escapeHtml, pageStart } from '../../lib/html.js';
import { CARD_HEIGHT, CARD_WIDTH } from './card-image.js';
import { choiceValues, previewDescription, scaleText, votesText } from './wording.js';

/** The web app's screen of a question, where the button to answer leads. */
const appQuestionPath = (id: number) => `/question/${id}`;

/**
 * The quiz, which sends a visitor on to sign up and then to `destination`; the app sends someone
 * already signed in straight there. The page is the same for everyone, as shared caches keep it,
 * so it does not look at who is signed in.
 */
const answerHref = (destination: string) => `/quiz?next=${encodeURIComponent(destination)}`;
const logInHref = (destination: string) => `/login?next=${encodeURIComponent(destination)}`;

const typeLabels: Record<Question['type'], string> = { MC: 'Multiple choice', RS: 'Rating', N: 'Number' };

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

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

function htmlDocument({ title, head = '', body }: { title: string; head?: string; body: string }): string {
  return `${pageStart(title)}
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
${head}<style>${style}</style>
</head>
<body>
<header class="top"><a class="logo" href="/" aria-label="POLLSCOPE home"><span class="mark">${searchIcon}</span><span>POLLSCOPE</span></a></header>
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

/** Open Graph and Twitter card tags: what a link to the page shows where it is posted. */
function previewTags({ question, url, imageUrl }: SharedQuestion): string {
  const description = previewDescription(question);
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
    ['property', 'og:image:alt', `${question.title}, a poll on POLLSCOPE`],
    ['name', 'twitter:card', 'summary_large_image'],
    ['name', 'twitter:title', question.title],
    ['name', 'twitter:description', description],
    ['name', 'twitter:image', imageUrl],
  ];
  return `<link rel="canonical" href="${escapeHtml(url)}">\n${tags.map(([attribute, name, content]) => `<meta ${attribute}="${name}" content="${escapeHtml(content)}">`).join('\n')}\n`;
}

function answersOf(question: Question): string {
  const choices = choiceValues(question);
  if (choices.length === 0) return `<p class="scale">${escapeHtml(scaleText(question) ?? '')}</p>`;
  const items = choices.map((choice) => `<li>${escapeHtml(choice)}</li>`).join('');
  return `<ul class="${choices.length === 3 ? 'choices choices--3' : 'choices'}" aria-label="Choices">${items}</ul>`;
}

/**
 * The page a shared link opens, for anyone and without signing in: the question, its choices
 * and how many answered, never how they split, which only those who answer see.
 */
export function sharePage(shared: SharedQuestion): string {
  const { question } = shared;
  const tag = question.tags[0]?.name;
  const meta = [
    `<span class="avatar" aria-hidden="true">${escapeHtml(question.user_name.slice(0, 1).toUpperCase())}</span>`,
    `<span>Asked by <span class="author">${escapeHtml(question.user_name)}</span></span>`,
    `<span aria-hidden="true">·</span>`,
    `<time datetime="${escapeHtml(question.published_at)}">${dateFormat.format(new Date(question.published_at))}</time>`,
    ...(tag ? [`<span class="tag">#${escapeHtml(tag)}</span>`] : []),
  ].join('');
  const sub = [
    `<span class="mono">${displayId('QID', question.qid)}</span>`,
    typeLabels[question.type],
    ...(question.category ? [escapeHtml(question.category.name)] : []),
  ].join('<span aria-hidden="true"> · </span>');
  const destination = appQuestionPath(question.id);
  const body = `<article class="card" aria-labelledby="question-title">
<p class="meta">${meta}</p>
<h1 id="question-title">${escapeHtml(question.title)}</h1>
<p class="sub">${sub}</p>
${answersOf(question)}
<p class="votes">${votesText(question.vote_count)} <span>· answer to see how people split</span></p>
<div class="actions"><a class="btn" href="${escapeHtml(answerHref(destination))}">Answer this question</a><p class="note">Already a member? <a href="${escapeHtml(logInHref(destination))}">Log in</a></p></div>
</article>`;
  return htmlDocument({ title: `${question.title} · POLLSCOPE`, head: previewTags(shared), body });
}

/** The page of a question moderators withheld (410): it was there, and is no longer shown. */
export function withheldQuestionPage(): string {
  return htmlDocument({
    title: 'Question not available · POLLSCOPE',
    head: '<meta name="robots" content="noindex">\n',
    body: `<article class="card"><h1>Question not available</h1><p class="note">This question is no longer shown. <a href="/">Go to POLLSCOPE</a></p></article>`,
  });
}

/** What a link to a question that does not exist opens. */
export function missingQuestionPage(): string {
  return htmlDocument({
    title: 'Page not found! · POLLSCOPE',
    head: '<meta name="robots" content="noindex">\n',
    body: `<article class="card"><h1>Page not found!</h1><p class="note">This question does not exist. <a href="/">Go to POLLSCOPE</a></p></article>`,
  });
}

import { directionOf, errorBodySchema, type UiLocale } from '@pollscope/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/index.js';
import { NotFoundError } from '../../errors.js';
import { accountLocale } from '../../i18n/locale.js';
import { message, type MessageId } from '../../i18n/messages.js';
import { escapeHtml, pageStart } from '../../lib/html.js';

const tags = ['notifications'];
const publicCall = { public: true };
const querystring = z.object({ token: z.string().min(1) });
const htmlPage = { description: 'An HTML page', content: { 'text/html': { schema: z.string() } } };
const schema = {
  tags,
  security: [],
  querystring,
  response: { 200: htmlPage, 400: errorBodySchema, 404: errorBodySchema },
};

const unknownLink = () => new NotFoundError('This unsubscribe link is not known');

/** Turns notification mail off for the person of the token. */
async function unsubscribe(db: Db, token: string): Promise<void> {
  const { numUpdatedRows } = await db
    .updateTable('users')
    .set({ notification: 0 })
    .where('unsubscribe_token', '=', token)
    .executeTakeFirst();
  if (numUpdatedRows === 0n) throw unknownLink();
}

/** The language of the person of the token, whom the page speaks to; null for a token nobody has. */
async function localeOfToken(db: Db, token: string): Promise<UiLocale | null> {
  const person = await db
    .selectFrom('users')
    .select('language')
    .where('unsubscribe_token', '=', token)
    .executeTakeFirst();
  return person ? accountLocale(person.language) : null;
}

const page = (locale: UiLocale, body: string) =>
  `${pageStart(message(locale, 'unsubscribe.pageTitle'), '', locale, directionOf(locale))}\n</head>\n<body style="font-family:sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;">\n${body}\n</body>\n</html>\n`;

/**
 * The link of notification mail's `List-Unsubscribe` (RFC 8058), without signing in: the mail
 * client's one-click POST turns notification mail off; a GET, which link scanners make too,
 * only shows a button that POSTs.
 */
export const unsubscribeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  // The body, form-encoded or multipart as RFC 8058 allows, says nothing the URL does not.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));

  app.get('/unsubscribe/', { config: publicCall, schema }, async (request, reply) => {
    const locale = await localeOfToken(db, request.query.token);
    if (!locale) throw unknownLink();
    const text = (id: MessageId) => escapeHtml(message(locale, id));
    return reply
      .type('text/html; charset=utf-8')
      .header('content-language', locale)
      .send(
        page(
          locale,
          `<h1>${text('unsubscribe.confirm.title')}</h1>\n<p>${text('unsubscribe.confirm.text')}</p>\n<form method="post"><button type="submit">${text('unsubscribe.confirm.button')}</button></form>`,
        ),
      );
  });

  app.post('/unsubscribe/', { config: publicCall, schema }, async (request, reply) => {
    await unsubscribe(db, request.query.token);
    const locale = (await localeOfToken(db, request.query.token)) ?? 'en';
    const text = (id: MessageId) => escapeHtml(message(locale, id));
    return reply
      .type('text/html; charset=utf-8')
      .header('content-language', locale)
      .send(page(locale, `<h1>${text('unsubscribe.done.title')}</h1>\n<p>${text('unsubscribe.done.text')}</p>`));
  });
};

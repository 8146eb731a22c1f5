import { api, errorBodySchema, idParamsSchema, idSchema, type Question, type UiLocale } from '@pollscope/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFoundError } from '../../errors.js';
import { accountLocale } from '../../i18n/locale.js';
import { requestLocale } from '../../views/request-locale.js';
import { visitorQuestion } from '../../views/visitor-question.js';
import { votingScreenPath, VOTING_WINDOW_OPENER_POLICY } from '../../views/voting-window.js';
import { CardImages, cardVersion, PicturesBusyError } from './card-image.js';
import { missingQuestionPage, sharePage, withheldQuestionPage } from './page.js';

const publicCall = { public: true };
/**
 * Link previewers and CDNs keep a picture five minutes at most, so that once its question is removed or deleted they
 * soon ask again and get 404. A new version has an address of its own, so no cache holds back a new count meanwhile.
 */
const PICTURE = 'public, max-age=300';
/** The page shows a vote count that moves: a minute. */
const SHARE_PAGE = 'public, max-age=60';
/**
 * What the page differs by: its frame is in the visitor's language (the signed-in account's, the language cookie's or
 * `Accept-Language`'s), so every cache keeps one copy per value.
 */
const VARY = 'Cookie, Accept-Language';

const cardQuerystring = z.object({
  v: z
    .string()
    .max(64)
    .optional()
    .describe('The version of the picture the share page names, so that each version has an address of its own'),
});
const pngImage = {
  description: 'A PNG image, 1200×630',
  content: {
    'image/png': {
      schema: z.custom<Buffer>((value) => Buffer.isBuffer(value)).meta({ type: 'string', format: 'binary' }),
    },
  },
};
const notModified = z.undefined().describe('The picture of the version named by If-None-Match is current');

/**
 * Sharing a question outside the app: its page at `/q/{id}`, which anyone can open and which link
 * previews read, and the picture those previews show. Neither says how people answered: a
 * visitor is like someone who has not voted, and no hidden question or block concerns them.
 */
export const shareRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;
  const pictures = new CardImages(config.cardImagesMegabytes);
  app.addHook('onClose', () => pictures.close());
  /** The picture's frame is in the asker's language, whoever asks for it: one picture per question and count. */
  const askerLanguage = async (question: Question): Promise<UiLocale> => {
    const asker = await db.selectFrom('users').select('language').where('id', '=', question.user).executeTakeFirst();
    return accountLocale(asker?.language ?? 'en');
  };

  // A page, not a call of the API: an unknown or malformed id is the site's page-not-found.
  app.get('/q/:id', { schema: { hide: true } }, async (request, reply) => {
    const id = idSchema.safeParse((request.params as { id: string }).id);
    // The window an embed opened to vote (embedVotePath): on to the app's question screen, which asks for the click
    // that votes, its opener kept (views/voting-window.ts).
    const { answer } = request.query as { answer?: unknown };
    if (id.success && typeof answer === 'string')
      return reply
        .header('cross-origin-opener-policy', VOTING_WINDOW_OPENER_POLICY)
        .header('cache-control', 'no-cache')
        .redirect(votingScreenPath(id.data, answer));
    const question = id.success ? await visitorQuestion(app, id.data) : undefined;
    // The page is in the language of whoever opened it (CONTRACT.md §7).
    const locale = await requestLocale(request);
    reply.type('text/html; charset=utf-8').header('vary', VARY).header('content-language', locale);
    if (!question) return reply.code(404).header('cache-control', 'no-cache').send(missingQuestionPage(locale));
    // Gone for good as far as link previews and search engines go, though a moderator may restore it.
    if (question === 'withheld')
      return reply.code(410).header('cache-control', 'no-cache').send(withheldQuestionPage(locale));
    const version = cardVersion(question, await askerLanguage(question));
    const imageUrl = `${config.publicUrl}${api.questionCard(question.id)}?v=${version}`;
    return reply
      .header('cache-control', SHARE_PAGE)
      .send(sharePage({ question, url: `${config.publicUrl}/q/${question.id}`, imageUrl }, locale));
  });

  app.get(
    '/api/polls/question/:id/card.png',
    {
      config: publicCall,
      schema: {
        tags: ['polls'],
        security: [],
        params: idParamsSchema,
        querystring: cardQuerystring,
        response: { 200: pngImage, 304: notModified, 400: errorBodySchema, 404: errorBodySchema, 503: errorBodySchema },
      },
    },
    async (request, reply) => {
      const question = await visitorQuestion(app, request.params.id);
      if (!question || question === 'withheld') {
        // Kept by no cache, so that the picture is back as soon as a moderator restores the question.
        reply.header('cache-control', 'no-cache');
        throw new NotFoundError('No such question');
      }
      const locale = await askerLanguage(question);
      const version = cardVersion(question, locale);
      const etag = `"${version}"`;
      reply.header('etag', etag).header('cache-control', PICTURE);
      // A preview picture is for other sites to show: the site-wide same-origin policy would keep browsers from it.
      reply.header('cross-origin-resource-policy', 'cross-origin');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      try {
        return reply.type('image/png').send(await pictures.png(question, locale, version));
      } catch (error) {
        if (error instanceof PicturesBusyError) reply.header('retry-after', 5);
        throw error;
      }
    },
  );
};

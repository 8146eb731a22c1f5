import { errorBodySchema, idSchema, OEMBED_PATH, oembedQuerySchema, oembedResponseSchema } from '@pollscope/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { NotFoundError, NotImplementedError } from '../../errors.js';
import { visitorLocale } from '../../i18n/locale.js';
import { visitorQuestion } from '../../views/visitor-question.js';
import { embedFilesReader } from './files.js';
import { oembedOf, questionIdOf } from './oembed.js';
import { embedPage, unavailablePage } from './page.js';

/**
 * The same for everyone who asks in one language, so shared caches keep it; a minute at most, so that a question
 * removed meanwhile is told within one (CONTRACT.md §7).
 */
const CACHE_CONTROL = 'public, max-age=60';
/** Both answers read no cookie and no token: their language alone, from `Accept-Language`, sets them apart. */
const VARY = 'Accept-Language';

/**
 * The embed page's own policy, in place of the site's: any site may frame it, and it loads only its script and style
 * sheet and opens only the live stream, all from this site.
 */
const EMBED_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  'frame-ancestors *',
].join('; ');

/**
 * A question on other sites (CONTRACT.md §7, Embeds): the page they frame at `/embed/q/{id}`, and oEmbed, which turns a
 * link to `/q/{id}` into that frame. Neither reads who is asking: both show what a visitor may see.
 */
export const embedRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app;
  const embedFiles = embedFilesReader(config.webDist);

  // A page, not a call of the API: an unknown or malformed id is told like a removed question.
  app.get('/embed/q/:id', { schema: { hide: true } }, async (request, reply) => {
    const id = idSchema.safeParse((request.params as { id: string }).id);
    const question = id.success ? await visitorQuestion(app, id.data) : undefined;
    const locale = visitorLocale({ 'accept-language': request.headers['accept-language'] });
    // Helmet's header, which would keep every other site from framing it, is on the raw response (security-headers.ts).
    reply.raw.removeHeader('x-frame-options');
    reply
      .header('content-security-policy', EMBED_POLICY)
      .header('cache-control', CACHE_CONTROL)
      .header('vary', VARY)
      .header('content-language', locale)
      .type('text/html; charset=utf-8');
    if (question === undefined || question === 'withheld')
      return reply.code(404).send(unavailablePage(locale, embedFiles()));
    const url = `${config.publicUrl}/q/${question.id}`;
    return reply.send(embedPage({ question, url, files: embedFiles() }, locale));
  });

  app.get(
    OEMBED_PATH,
    {
      config: { public: true },
      schema: {
        tags: ['embeds'],
        description:
          'oEmbed 1.0 (`type: rich`): the `<iframe>` of the question’s embed page, sized within `maxwidth` and `maxheight`.',
        security: [],
        querystring: oembedQuerySchema,
        response: { 200: oembedResponseSchema, 400: errorBodySchema, 404: errorBodySchema, 501: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { url, maxwidth, maxheight, format } = request.query;
      reply.header('vary', VARY);
      if (format !== undefined && format !== 'json') throw new NotImplementedError('errors.oembedJsonOnly');
      const id = questionIdOf(url, config.publicUrl);
      const question = id === null ? undefined : await visitorQuestion(app, id);
      if (question === undefined || question === 'withheld') throw new NotFoundError('errors.noSuchQuestion');
      reply.header('cache-control', CACHE_CONTROL);
      return oembedOf(question, config.publicUrl, { maxwidth, maxheight });
    },
  );
};

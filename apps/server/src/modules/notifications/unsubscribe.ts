import { errorBodySchema } from '@pollscope/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/index.js';
import { NotFoundError } from '../../errors.js';

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

async function hasToken(db: Db, token: string): Promise<boolean> {
  return (
    (await db.selectFrom('users').select('id').where('unsubscribe_token', '=', token).executeTakeFirst()) !== undefined
  );
}

/** Turns notification mail off for the person of the token. */
async function unsubscribe(db: Db, token: string): Promise<void> {
  const { numUpdatedRows } = await db
    .updateTable('users')
    .set({ notification: 0 })
    .where('unsubscribe_token', '=', token)
    .executeTakeFirst();
  if (numUpdatedRows === 0n) throw unknownLink();
}

const page = (body: string) =>
  `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Pollscope notification mail</title></head>\n<body style="font-family:sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;">\n${body}\n</body>\n</html>\n`;

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
    if (!(await hasToken(db, request.query.token))) throw unknownLink();
    return reply
      .type('text/html; charset=utf-8')
      .send(
        page(
          `<h1>Stop notification mail?</h1>\n<p>You will no longer get mail about new followers, likes and votes. You can turn it on again in your settings.</p>\n<form method="post"><button type="submit">Unsubscribe</button></form>`,
        ),
      );
  });

  app.post('/unsubscribe/', { config: publicCall, schema }, async (request, reply) => {
    await unsubscribe(db, request.query.token);
    return reply
      .type('text/html; charset=utf-8')
      .send(
        page(
          '<h1>Unsubscribed</h1>\n<p>You will no longer get notification mail. You can turn it on again in your settings.</p>',
        ),
      );
  });
};

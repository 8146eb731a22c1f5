import {
  accountSchema,
  accountUpdateBodySchema,
  errorBodySchema,
  loginBodySchema,
  registerBodySchema,
  settingsSchema,
  settingsUpdateBodySchema,
  tokenResponseSchema,
} from '@pollscope/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BadRequestError } from '../../errors.js';
import { viewer } from '../../plugins/auth.js';
import { authenticate, getAccount, getSettings, registerUser, updateAccount, updateSettings } from './accounts.js';
import { hashPassword } from './passwords.js';
import { createSession, endSession } from './sessions.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema };
const tags = ['auth'];
export const WRONG_CREDENTIALS = 'Wrong username or password!';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;
  // Compared against when the email is unknown, so both cases take the same time.
  const dummyHash = await hashPassword('not a real password', config.passwordHashCost);

  app.post(
    '/auth/register/',
    { config: { public: true }, schema: { tags, security: [], body: registerBodySchema, response: { 201: tokenResponseSchema, ...errors, 409: errorBodySchema } } },
    async (request, reply) => {
      const passwordHash = await hashPassword(request.body.password, config.passwordHashCost);
      const { token } = await app.changes.commit(async (trx) => {
        const { userId, changes } = await registerUser(trx, request.body, passwordHash);
        return { token: await createSession(trx, userId), changes };
      });
      return reply.code(201).send({ token });
    },
  );

  app.post('/login/', { config: { public: true }, schema: { tags, security: [], body: loginBodySchema, response: { 200: tokenResponseSchema, ...errors } } }, async (request) => {
    const userId = await authenticate(db, request.body.username || request.body.email || '', request.body.password, dummyHash);
    if (userId === null) throw new BadRequestError(WRONG_CREDENTIALS);
    return { token: await createSession(db, userId) };
  });

  app.post('/auth/logout/', { schema: { tags, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    viewer(request);
    await app.changes.commit((trx) => endSession(trx, request.token!));
    return reply.code(204).send(null);
  });

  app.get('/auth/settings/', { schema: { tags, response: { 200: settingsSchema, ...errors } } }, (request) => getSettings(db, viewer(request)));

  app.post('/auth/settings/', { schema: { tags, body: settingsUpdateBodySchema, response: { 200: settingsSchema, ...errors, 409: errorBodySchema } } }, async (request) => {
    const viewerId = viewer(request);
    const { password } = request.body;
    // Hashed before the transaction, which would otherwise hold the database for as long.
    const passwordHash = password ? await hashPassword(password, config.passwordHashCost) : undefined;
    await app.changes.commit((trx) => updateSettings(trx, viewerId, request.body, passwordHash, request.token!));
    return getSettings(db, viewerId);
  });

  app.get('/auth/account/', { schema: { tags, response: { 200: accountSchema, ...errors } } }, (request) => getAccount(db, viewer(request)));

  app.post('/auth/account/', { schema: { tags, body: accountUpdateBodySchema, response: { 200: accountSchema, ...errors } } }, async (request) => {
    const viewerId = viewer(request);
    await app.changes.commit((trx) => updateAccount(trx, viewerId, request.body));
    return getAccount(db, viewerId);
  });
};

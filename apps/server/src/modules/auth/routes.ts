import {
  accountExportSchema,
  accountSchema,
  accountUpdateBodySchema,
  deleteAccountBodySchema,
  displayId,
  emailConfirmAnswerSchema,
  emailConfirmBodySchema,
  errorBodySchema,
  loginBodySchema,
  passwordResetAnswerSchema,
  passwordResetBodySchema,
  passwordResetConfirmBodySchema,
  registerBodySchema,
  settingsSchema,
  settingsUpdateBodySchema,
  tokenResponseSchema,
} from '@pollscope/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { retryingConflicts } from '../../db/database-errors.js';
import type { Db } from '../../db/index.js';
import { BadRequestError, UnauthorizedError } from '../../errors.js';
import { visitorLocale } from '../../i18n/locale.js';
import { viewer } from '../../lib/request-session.js';
import type { ModerationMarks } from '../../views/moderation-marks.js';
import { noteRegisteredNetwork } from '../moderation/index.js';
import { deleteAccount } from './account-deletion.js';
import { accountExport } from './account-export.js';
import {
  admitToSignIn,
  authenticate,
  checkCurrentPassword,
  getAccount,
  getSettings,
  registerUser,
  updateAccount,
  updateSettings,
} from './accounts.js';
import { confirmEmailChange } from './email-change.js';
import { RESET_ANSWER_MS, requestPasswordReset, resetRequested, resetPassword } from './password-reset.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { requestLocale } from '../../views/request-locale.js';
import { createSession, endSession } from './sessions.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema };
const tags = ['auth'];
export const WRONG_CREDENTIALS = 'errors.wrongCredentials';
export const WRONG_PASSWORD = 'errors.wrongPassword';

/** Sends everything stored about the person as a JSON file, written as it is read. */
function sendAccountExport(reply: FastifyReply, db: Db, moderation: ModerationMarks, viewerId: number) {
  const filename = `pollscope-${displayId('UID', viewerId)}-${new Date().toISOString().slice(0, 10)}.json`;
  return (
    reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      // One piece read ahead at most: a slow download holds two lots of rows, never the whole list.
      .send(Readable.from(accountExport(db, moderation, viewerId), { highWaterMark: 1 }))
  );
}

/** The person's password, given again to confirm what cannot be undone (400 when wrong). */
async function checkPassword(db: Db, viewerId: number, password: string): Promise<void> {
  const person = await db.selectFrom('users').select('password_hash').where('id', '=', viewerId).executeTakeFirst();
  if (!person) throw new UnauthorizedError('errors.sessionEnded');
  if (!(await verifyPassword(password, person.password_hash)))
    throw new BadRequestError(WRONG_PASSWORD, { password: WRONG_PASSWORD });
}

/** Signing up, in and out. */
const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;
  // Compared against when the email is unknown, so both cases take the same time.
  const dummyHash = await hashPassword('not a real password', config.passwordHashCost);

  app.post(
    '/auth/register/',
    {
      config: { public: true },
      schema: {
        tags,
        security: [],
        body: registerBodySchema,
        response: { 201: tokenResponseSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const passwordHash = await hashPassword(request.body.password, config.passwordHashCost);
      // The language the registration was made in: the switcher's cookie, else the browser's languages, else English.
      const language = visitorLocale(request.headers);
      const { token } = await app.changes.commit(async (trx) => {
        const { userId, changes } = await registerUser(trx, config, request.body, passwordHash, language);
        await noteRegisteredNetwork(trx, userId, request.ip);
        return { token: await createSession(trx, userId), changes };
      });
      return reply.code(201).send({ token });
    },
  );

  app.post(
    '/login/',
    {
      config: { public: true },
      schema: {
        tags,
        security: [],
        body: loginBodySchema,
        response: { 200: tokenResponseSchema, ...errors, 403: errorBodySchema },
      },
    },
    async (request) => {
      const userId = await authenticate(db, request.body.email, request.body.password, dummyHash);
      if (userId === null) throw new BadRequestError(WRONG_CREDENTIALS);
      await admitToSignIn(db, config, userId);
      return { token: await createSession(db, userId) };
    },
  );

  app.post('/auth/logout/', { schema: { tags, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    viewer(request);
    await app.changes.commit((trx) => endSession(trx, request.token!));
    return reply.code(204).send(null);
  });
};

/** A new password for who forgot theirs, through a link sent by mail. */
const passwordResetRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;

  app.post(
    '/auth/password-reset/',
    {
      config: { public: true },
      schema: {
        tags,
        security: [],
        body: passwordResetBodySchema,
        response: { 200: passwordResetAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const answerAt = performance.now() + RESET_ANSWER_MS;
      await requestPasswordReset(db, config, request.body.email);
      await sleep(Math.max(0, answerAt - performance.now()));
      return { message: resetRequested(await requestLocale(request)) };
    },
  );

  app.post(
    '/auth/password-reset/confirm/',
    {
      config: { public: true },
      schema: {
        tags,
        security: [],
        body: passwordResetConfirmBodySchema,
        response: { 200: tokenResponseSchema, ...errors, 403: errorBodySchema },
      },
    },
    async (request) => {
      // Hashed before the transaction, and whatever the token: a bad one costs the same.
      const passwordHash = await hashPassword(request.body.password, config.passwordHashCost);
      const { token } = await app.changes.commit((trx) => resetPassword(trx, config, request.body.token, passwordHash));
      return { token };
    },
  );
};

/** The person's settings and account, and the confirmation of a new email address. */
const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;

  app.get('/auth/settings/', { schema: { tags, response: { 200: settingsSchema, ...errors } } }, (request) =>
    getSettings(db, viewer(request)),
  );

  app.post(
    '/auth/settings/',
    {
      schema: {
        tags,
        body: settingsUpdateBodySchema,
        response: { 200: settingsSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request) => {
      const viewerId = viewer(request);
      await checkCurrentPassword(db, viewerId, request.body);
      const { password } = request.body;
      // Hashed before the transaction, which would otherwise hold the database for as long.
      const passwordHash = password ? await hashPassword(password, config.passwordHashCost) : undefined;
      await app.changes.commit((trx) =>
        updateSettings(trx, config, viewerId, request.body, passwordHash, request.token!),
      );
      return getSettings(db, viewerId);
    },
  );

  app.post(
    '/auth/email/confirm/',
    {
      // Opened from the mail, maybe on a device not signed in: the token is the proof.
      config: { public: true },
      schema: {
        tags,
        security: [],
        body: emailConfirmBodySchema,
        response: { 200: emailConfirmAnswerSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request) => {
      const { email } = await app.changes.commit((trx) => confirmEmailChange(trx, config, request.body.token));
      return { email };
    },
  );

  app.get('/auth/account/', { schema: { tags, response: { 200: accountSchema, ...errors } } }, (request) =>
    getAccount(db, viewer(request)),
  );

  app.post(
    '/auth/account/',
    { schema: { tags, body: accountUpdateBodySchema, response: { 200: accountSchema, ...errors } } },
    async (request) => {
      const viewerId = viewer(request);
      await app.changes.commit((trx) => updateAccount(trx, viewerId, request.body));
      return getAccount(db, viewerId);
    },
  );
};

/** Everything stored about the person: a copy of it, or its deletion. */
const accountDataRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.get(
    '/auth/export/',
    {
      schema: {
        tags,
        description: 'A JSON file (`Content-Disposition: attachment`), sent as it is read, a thousand rows at a time.',
        response: {
          200: {
            description: 'Everything stored about you',
            content: { 'application/json': { schema: accountExportSchema } },
          },
          ...errors,
        },
      },
    },
    async (request, reply) => sendAccountExport(reply, db, app.memory.moderation, viewer(request)),
  );

  app.post(
    '/auth/delete/',
    { schema: { tags, body: deleteAccountBodySchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      const viewerId = viewer(request);
      await checkPassword(db, viewerId, request.body.password);
      await retryingConflicts(() => app.changes.commit((trx) => deleteAccount(trx, app.dialect, viewerId)));
      return reply.code(204).send(null);
    },
  );
};

/** Accounts and sessions: signing up and in, settings, a forgotten password, and the person's data. */
export const authRoutes: FastifyPluginAsyncZod = async (app, options) => {
  await sessionRoutes(app, options);
  await passwordResetRoutes(app, options);
  await settingsRoutes(app, options);
  await accountDataRoutes(app, options);
};

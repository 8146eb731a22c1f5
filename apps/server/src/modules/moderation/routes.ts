import {
  errorBodySchema,
  moderationActionBodySchema,
  moderationLogEntrySchema,
  moderationLogPageSchema,
  moderationLogQuerySchema,
  moderationOpenCountSchema,
  moderationReportPageSchema,
  moderationReportsQuerySchema,
  myReportPageSchema,
  myReportsQuerySchema,
  reportBodySchema,
  reportCreatedSchema,
  roleBodySchema,
  roleSetSchema,
} from '@pollscope/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { retryingConflicts } from '../../db/dialect.js';
import { BadRequestError, NotFoundError } from '../../errors.js';
import { viewer } from '../../plugins/app/auth.js';
import { questionToAct } from '../../views/pipeline.js';
import { readerOf } from '../../views/reader.js';
import { mayViewProfile } from '../../views/rules.js';
import { userExists } from '../social/index.js';
import { act } from './actions.js';
import { logPage } from './log.js';
import { openTargets, queuePage } from './queue.js';
import { fileReport, myReports } from './reports.js';
import { MODERATING_ROLES, requireRole, setRole } from './roles.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const tags = ['moderation'];

/** Reports, which anyone signed in makes, and what moderators and admins do with them (CONTRACT §5). */
export const moderationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, dialect, config, memory } = app;

  app.post(
    '/reports/',
    {
      schema: {
        tags,
        body: reportBodySchema,
        response: { 201: reportCreatedSchema, 200: reportCreatedSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const reader = await readerOf(request);
      const reporterId = reader.viewer.userId;
      const { target, id } = request.body;
      let authorId: number | null = null;
      if (target === 'question') {
        // A question the reporter cannot see is no question to them (404), as everywhere else.
        const { card } = await questionToAct(reader, id);
        if (card.authorId === reporterId) throw new BadRequestError('errors.reports.ownQuestion');
        authorId = card.authorId;
      } else {
        if (id === reporterId) throw new BadRequestError('errors.reports.yourself');
        mayViewProfile(memory.moderation, reporterId, id);
        if (!(await userExists(db, id))) throw new NotFoundError('errors.noSuchUser');
      }
      const reported = await retryingConflicts(() =>
        app.changes.commit((trx) =>
          fileReport(trx, dialect, reporterId, request.body, authorId, config.reportHideThreshold),
        ),
      );
      return reply.code(reported.created ? 201 : 200).send({ id: reported.id });
    },
  );

  app.get(
    '/reports/',
    { schema: { tags, querystring: myReportsQuerySchema, response: { 200: myReportPageSchema, ...errors } } },
    (request) => myReports(db, viewer(request), request.query.cursor),
  );

  app.get(
    '/moderation/reports/',
    {
      schema: {
        tags,
        querystring: moderationReportsQuerySchema,
        response: { 200: moderationReportPageSchema, ...errors },
      },
    },
    async (request) => {
      await requireRole(db, viewer(request), MODERATING_ROLES);
      return queuePage(await readerOf(request), request.query.status, request.query.cursor);
    },
  );

  app.get(
    '/moderation/open/',
    { schema: { tags, response: { 200: moderationOpenCountSchema, ...errors } } },
    async (request) => {
      await requireRole(db, viewer(request), MODERATING_ROLES);
      return { open: await openTargets(db) };
    },
  );

  app.post(
    '/moderation/actions/',
    {
      schema: {
        tags,
        body: moderationActionBodySchema,
        response: { 200: moderationLogEntrySchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request) => {
      const moderatorId = viewer(request);
      const role = await requireRole(db, moderatorId, MODERATING_ROLES);
      const { entry } = await retryingConflicts(() =>
        app.changes.commit((trx) => act(trx, dialect, config, { id: moderatorId, role }, request.body)),
      );
      return entry;
    },
  );

  app.post(
    '/moderation/roles/',
    { schema: { tags, body: roleBodySchema, response: { 200: roleSetSchema, ...errors } } },
    async (request) => {
      const adminId = viewer(request);
      await requireRole(db, adminId, ['admin']);
      const { user, role } = request.body;
      await db.transaction().execute((trx) => setRole(trx, adminId, user, role));
      request.log.info({ adminId, userId: user, role }, 'moderation: role set');
      return { user, role };
    },
  );

  app.get(
    '/moderation/log/',
    { schema: { tags, querystring: moderationLogQuerySchema, response: { 200: moderationLogPageSchema, ...errors } } },
    async (request) => {
      await requireRole(db, viewer(request), MODERATING_ROLES);
      return logPage(db, request.query.cursor);
    },
  );
};

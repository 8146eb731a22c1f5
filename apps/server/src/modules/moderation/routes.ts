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
import type { z } from 'zod';
import { retryingConflicts } from '../../db/database-errors.js';
import type { Db } from '../../db/index.js';
import { BadRequestError, NotFoundError } from '../../errors.js';
import { viewer } from '../../lib/request-session.js';
import type { ModerationMarks } from '../../views/moderation-marks.js';
import { questionToAct, type Reader } from '../../views/pipeline.js';
import { readerOf } from '../../views/reader.js';
import type { ViewerState } from '../../views/viewer-states.js';
import { mayViewProfile } from '../../views/rules.js';
import { userExists } from '../social/index.js';
import { act } from './actions.js';
import { logPage } from './log.js';
import { openTargets, queuePage } from './queue.js';
import { fileReport, myReports } from './reports.js';
import { MODERATING_ROLES, requireRole, setRole } from './roles.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const tags = ['moderation'];

/**
 * The author of what the reporter reports (null for a person), when they may report it: a question they can see
 * (404 otherwise, as everywhere else) and not their own, or a person who exists, whose profile they may view, and
 * who is not themselves.
 */
async function reportedAuthor(
  reader: Reader & { viewer: ViewerState },
  db: Db,
  moderation: ModerationMarks,
  { target, id }: z.output<typeof reportBodySchema>,
): Promise<number | null> {
  const reporterId = reader.viewer.userId;
  if (target === 'question') {
    const { card } = await questionToAct(reader, id);
    if (card.authorId === reporterId) throw new BadRequestError('errors.reports.ownQuestion');
    return card.authorId;
  }
  if (id === reporterId) throw new BadRequestError('errors.reports.yourself');
  mayViewProfile(moderation, reporterId, id);
  if (!(await userExists(db, id))) throw new NotFoundError('errors.noSuchUser');
  return null;
}

/** The reports anyone signed in makes, and their own list of them. */
const reportRoutes: FastifyPluginAsyncZod = async (app) => {
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
      const authorId = await reportedAuthor(reader, db, memory.moderation, request.body);
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
};

/** What moderators and admins do with reports, and the roles admins give. */
const moderatorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, dialect, config } = app;

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

/** Reports, which anyone signed in makes, and what moderators and admins do with them (CONTRACT §5). */
export const moderationRoutes: FastifyPluginAsyncZod = async (app, options) => {
  await reportRoutes(app, options);
  await moderatorRoutes(app, options);
};

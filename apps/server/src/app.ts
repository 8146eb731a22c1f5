import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from './config.js';
import type { DatabaseHandle, Db } from './db/index.js';
import type { DialectName } from './db/dialect.js';
import type { Replicas } from './db/replicas.js';
import { HttpError } from './errors.js';
import { authRoutes } from './modules/auth/routes.js';
import { discoveryRoutes } from './modules/discovery/routes.js';
import { embedRoutes } from './modules/embed/index.js';
import { healthRoutes, metricsRoutes } from './modules/health/index.js';
import { insightsRoutes } from './modules/insights/routes.js';
import { liveRoutes } from './modules/live/routes.js';
import { moderationRoutes } from './modules/moderation/routes.js';
import { notificationsRoutes } from './modules/notifications/routes.js';
import { unsubscribeRoutes } from './modules/notifications/unsubscribe.js';
import { pollsRoutes } from './modules/polls/routes.js';
import { pushRoutes } from './modules/push/routes.js';
import { referenceRoutes } from './modules/reference/index.js';
import { shareRoutes } from './modules/share/index.js';
import { siteRoutes } from './modules/site/routes.js';
import { socialRoutes } from './modules/social/routes.js';
import { webAppRoutes } from './modules/web-app/index.js';
import { authPlugin } from './plugins/app/auth.js';
import { causesPlugin } from './plugins/app/causes.js';
import { changesPlugin } from './plugins/app/changes.js';
import { connectionsPlugin } from './plugins/app/connections.js';
import { drainOnClosePlugin } from './plugins/app/drain-on-close.js';
import { errorHandlerPlugin, replyToBadUrl } from './plugins/app/error-handler.js';
import { eventStreamsPlugin } from './plugins/app/event-streams.js';
import { livePlugin } from './plugins/app/live.js';
import { mailPlugin } from './plugins/app/mail.js';
import { memoryPlugin } from './plugins/app/memory.js';
import { metricsPlugin } from './plugins/app/metrics.js';
import { notificationMailPlugin } from './plugins/app/notification-mail.js';
import { nulTextPlugin } from './plugins/app/nul-text.js';
import { operationsPlugin } from './plugins/app/operations.js';
import { overloadPlugin } from './plugins/app/overload.js';
import { pushPlugin } from './plugins/app/push.js';
import { replicaReadsPlugin } from './plugins/app/replica-reads.js';
import { unreadPlugin } from './plugins/app/unread.js';
import { rateLimitPlugin } from './plugins/external/rate-limit.js';
import { redisPlugin } from './plugins/external/redis.js';
import { securityHeadersPlugin } from './plugins/external/security-headers.js';
import { swaggerPlugin } from './plugins/external/swagger.js';
import { responseJson } from './views/questions.js';
import type { CryptoRandom } from './private-release/discrete-noise.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    dialect: DialectName;
    /** The primary's streaming replicas (DATABASE_REPLICA_URL), or null (docs/deploy.md, Read replicas). */
    replicas: Replicas | null;
  }
}

export type App = FastifyInstance;

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  /** The server's pino logger; none in tests. */
  logger?: FastifyBaseLogger;
  /**
   * Checks every JSON response against its route's schema for its status, and answers 500 with
   * what does not match instead. The tests turn it on; it costs more than a request, so
   * production never does.
   */
  checkResponses?: boolean;
  /** Where breakdown's and relate's noise is drawn from: node:crypto, unless a test seeds it to know its draws. */
  noiseRandom?: CryptoRandom;
}

/** Where `sent` has a field that zod's output of it, which keeps only the fields the schema declares, has not. */
function undeclaredFields(sent: unknown, declared: unknown, path: string[] = []): string[] {
  if (typeof sent !== 'object' || sent === null || typeof declared !== 'object' || declared === null) return [];
  const declaredFields = new Map(Object.entries(declared));
  return Object.entries(sent).flatMap(([key, field]) =>
    declaredFields.has(key)
      ? undeclaredFields(field, declaredFields.get(key), [...path, key])
      : [`✖ A field the schema does not declare\n  → at ${[...path, key].join('.')}`],
  );
}

/**
 * A response its route's schema refuses, or with fields it does not declare, is answered with a
 * 500 whose message names the route, the status and what does not match: the test that made the
 * call fails saying so.
 */
function checkResponse(schema: unknown, json: string, route: string, status: number | string): void {
  if (!(schema instanceof z.ZodType))
    throw new HttpError(500, `${route} has a response schema for ${status} that is not a zod schema`);
  let sent: unknown;
  try {
    sent = JSON.parse(json);
  } catch (error) {
    throw new HttpError(500, `${route} answered ${status} with a body that is not JSON (${String(error)}):\n${json}`);
  }
  const checked = schema.safeParse(sent);
  const issues = checked.success ? undeclaredFields(sent, checked.data) : [z.prettifyError(checked.error)];
  if (issues.length > 0)
    throw new HttpError(
      500,
      `${route} answered ${status} with a body its schema refuses:\n${issues.join('\n')}\n${json}`,
    );
}

/** The response schema of the request's route for the reply's status, if it has one. */
function responseSchemaOf(request: FastifyRequest, reply: FastifyReply): unknown {
  const schemas = request.routeOptions.schema?.response;
  return typeof schemas === 'object' && schemas !== null
    ? new Map(Object.entries(schemas)).get(String(reply.statusCode))
    : undefined;
}

/** Calls such as like or follow are posted with an empty body; that is no body, not bad JSON. */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : parseJson(request, body as string, done),
  );
}

/**
 * Writes responses as JSON. Responses are typed against the contract at compile time and checked by the tests (with
 * `checkResponses`); re-validating every response in production would cost more than the rest of a request.
 */
function serializeResponses(app: FastifyInstance, checkResponses: boolean): void {
  if (checkResponses) {
    app.setSerializerCompiler(({ schema, method, url, httpStatus }) => (data) => {
      const json = responseJson(data);
      checkResponse(schema, json, `${method} ${url}`, httpStatus ?? 'any status');
      return json;
    });
    // The feed writes its JSON itself, kept or fresh, and sends it without the serializer.
    app.addHook('onSend', async (request, reply, payload) => {
      const schema = responseSchemaOf(request, reply);
      if (
        Buffer.isBuffer(payload) &&
        schema !== undefined &&
        String(reply.getHeader('content-type')).startsWith('application/json')
      ) {
        checkResponse(schema, payload.toString(), `${request.method} ${request.routeOptions.url}`, reply.statusCode);
      }
      return payload;
    });
  } else {
    app.setSerializerCompiler(() => (data) => responseJson(data));
  }
}

/** Builds the whole application without listening, so tests can call it through `inject`. */
export async function buildApp({
  config,
  database,
  logger,
  checkResponses = false,
  noiseRandom,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    bodyLimit: config.bodyLimit,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    trustProxy: config.trustProxy,
    // Requests arriving while the app closes are refused by the drain-on-close plugin, with the contract's body and
    // Retry-After.
    return503OnClosing: false,
    frameworkErrors: replyToBadUrl,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  acceptEmptyJsonBodies(app);
  serializeResponses(app, checkResponses);

  app.decorate('config', config);
  app.decorate('db', database.db);
  app.decorate('dialect', database.dialect);
  app.decorate('replicas', database.replicas);
  // Every plugin names what it needs (fastify-plugin's `dependencies`), so a wrong order fails here
  // rather than at the first stale read. The error handler first, so that every plugin registered
  // after it (the API docs too) answers errors alike; the routes last.
  await app.register(errorHandlerPlugin);

  // Before every other hook: every request is counted, and a closing or overloaded instance refuses one before any work
  // is done for it.
  await app.register(metricsPlugin, { database });
  await app.register(connectionsPlugin);
  await app.register(drainOnClosePlugin);
  await app.register(overloadPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(swaggerPlugin);
  await app.register(redisPlugin);
  await app.register(rateLimitPlugin);

  await app.register(nulTextPlugin);
  // The change layer first; then what registers with it, in the order its appliers run: the copies kept in memory, then
  // the streams that read them.
  await app.register(changesPlugin);
  await app.register(causesPlugin);
  await app.register(memoryPlugin, { noiseRandom });
  await app.register(eventStreamsPlugin);
  await app.register(livePlugin);
  await app.register(unreadPlugin);
  await app.register(authPlugin);
  await app.register(replicaReadsPlugin);
  await app.register(mailPlugin);
  await app.register(notificationMailPlugin);
  await app.register(pushPlugin);
  await app.register(operationsPlugin);

  await app.register(healthRoutes, { prefix: '/api' });
  await app.register(referenceRoutes, { prefix: '/api' });
  await app.register(authRoutes, { prefix: '/api' });
  await app.register(pollsRoutes, { prefix: '/api' });
  await app.register(socialRoutes, { prefix: '/api' });
  await app.register(insightsRoutes, { prefix: '/api' });
  await app.register(siteRoutes, { prefix: '/api' });
  await app.register(liveRoutes, { prefix: '/api' });
  await app.register(notificationsRoutes, { prefix: '/api' });
  await app.register(unsubscribeRoutes, { prefix: '/api' });
  await app.register(pushRoutes, { prefix: '/api' });
  await app.register(discoveryRoutes, { prefix: '/api' });
  await app.register(moderationRoutes, { prefix: '/api' });
  // The share page is outside /api; the picture it names is a call of the API.
  await app.register(shareRoutes);
  // The embed page, which other sites frame, and oEmbed (under /api, with its full path).
  await app.register(embedRoutes);
  await app.register(metricsRoutes);
  await app.register(webAppRoutes);

  return app;
}

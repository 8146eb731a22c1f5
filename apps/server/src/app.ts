import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { DatabaseHandle, Db } from './db/index.js';
import type { DialectName } from './db/dialect.js';
import { authRoutes } from './modules/auth/routes.js';
import { healthRoutes } from './modules/health/routes.js';
import { insightsRoutes } from './modules/insights/routes.js';
import { livePlugin } from './modules/live/hub.js';
import { liveRoutes } from './modules/live/routes.js';
import { pollsRoutes } from './modules/polls/routes.js';
import { referenceRoutes } from './modules/reference/routes.js';
import { siteRoutes } from './modules/site/routes.js';
import { socialRoutes } from './modules/social/routes.js';
import { changesPlugin } from './changes/plugin.js';
import { authPlugin } from './plugins/auth.js';
import { registerErrorHandler, replyToBadUrl } from './plugins/error-handler.js';
import { refuseNulText } from './plugins/nul-text.js';
import { registerOperations } from './plugins/operations.js';
import { registerRateLimits } from './plugins/rate-limit.js';
import { redisPlugin } from './plugins/redis.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { registerWebApp } from './plugins/web-app.js';
import { memoryPlugin } from './views/plugin.js';
import { responseJson } from './views/questions.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    dialect: DialectName;
  }
}

export type App = FastifyInstance;

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  /** The server's pino logger; none in tests. */
  logger?: FastifyBaseLogger;
}

/** Builds the whole application without listening, so tests can call it through `inject`. */
export async function buildApp({ config, database, logger }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    bodyLimit: config.bodyLimit,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    trustProxy: config.trustProxy,
    frameworkErrors: replyToBadUrl,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // Calls such as like or follow are posted with an empty body; that is no body, not bad JSON.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : parseJson(request, body as string, done),
  );
  // Responses are typed against the contract at compile time and checked by the tests;
  // re-validating every response in production would cost more than the rest of a request.
  app.setSerializerCompiler(() => (data) => responseJson(data));

  app.decorate('config', config);
  app.decorate('db', database.db);
  app.decorate('dialect', database.dialect);
  // First, so that every plugin registered after it (the API docs too) answers errors alike.
  registerErrorHandler(app);

  registerSecurityHeaders(app);
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Pollscope API', version: '1.0.0', description: 'The API of the Pollscope social polling app.' },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Token <token>' } } },
      security: [{ token: [] }],
      servers: [{ url: '/', description: 'The server that serves this document' }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  refuseNulText(app);
  // Each says what it needs, so a wrong order fails here rather than at the first stale read.
  await app.register(redisPlugin);
  await app.register(memoryPlugin);
  await app.register(livePlugin);
  await app.register(changesPlugin);
  await app.register(authPlugin);
  await registerRateLimits(app);
  registerOperations(app);

  await app.register(healthRoutes, { prefix: '/api' });
  await app.register(referenceRoutes, { prefix: '/api' });
  await app.register(authRoutes, { prefix: '/api' });
  await app.register(pollsRoutes, { prefix: '/api' });
  await app.register(socialRoutes, { prefix: '/api' });
  await app.register(insightsRoutes, { prefix: '/api' });
  await app.register(siteRoutes, { prefix: '/api' });
  await app.register(liveRoutes, { prefix: '/api' });
  await registerWebApp(app, config.webDist);

  return app;
}

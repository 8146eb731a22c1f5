import { configDefaults, defineConfig } from 'vitest/config';

/** Tests of several server instances together, run only where PostgreSQL and Redis are given. */
const needsPostgresAndRedis = [
  'src/modules/live/multi-instance.test.ts',
  'src/changes/every-kind.test.ts',
  'src/modules/mail/instances.test.ts',
  'src/modules/notifications/mail-instances.test.ts',
  'src/modules/push/instances.test.ts',
  'src/modules/moderation/instances.test.ts',
];
const hasPostgresAndRedis = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);
/**
 * Tests of real server processes on databases of their own (a SQLite file, or a PostgreSQL
 * cluster and a Redis they start and stop): run once, in the pass without TEST_DATABASE_URL.
 * `npm test` turns the faults off (TEST_FAULTS=off) where PostgreSQL's or Redis's programs are missing, and says so.
 */
const ownServers = ['src/faults.test.ts', 'src/db/durability.test.ts', 'src/modules/health/file-limit.test.ts', 'src/modules/health/overload.test.ts'];
const runOwnServers = !process.env.TEST_DATABASE_URL;
const faultsOff = process.env.TEST_FAULTS === 'off' ? ['src/faults.test.ts'] : [];

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(hasPostgresAndRedis ? [] : needsPostgresAndRedis), ...(runOwnServers ? faultsOff : ownServers)],
    // On a PostgreSQL run (TEST_DATABASE_URL) it makes the database each test file copies.
    globalSetup: ['src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

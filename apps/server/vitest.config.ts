import { configDefaults, defineConfig } from 'vitest/config';

/** Tests of several server instances together, run only where PostgreSQL and Redis are given. */
const needsPostgresAndRedis = [
  'src/modules/live/multi-instance.test.ts',
  'src/changes/every-kind.test.ts',
  'src/modules/mail/instances.test.ts',
  'src/modules/notifications/mail-instances.test.ts',
];
const hasPostgresAndRedis = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(hasPostgresAndRedis ? [] : needsPostgresAndRedis)],
    // On a PostgreSQL run (TEST_DATABASE_URL) it makes the database each test file copies.
    globalSetup: ['src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

import { configDefaults, defineConfig } from 'vitest/config';

/** Tests of several server instances together, run only where PostgreSQL and Redis are given. */
const needsPostgresAndRedis = [
  'src/modules/live/multi-instance.test.ts',
  'src/changes/every-kind.test.ts',
  'src/modules/mail/instances.test.ts',
  'src/modules/notifications/mail-instances.test.ts',
  'src/modules/push/instances.test.ts',
  'src/modules/moderation/instances.test.ts',
  'src/modules/live/rules-on-streams.test.ts',
  'src/db/replica.test.ts',
];
const hasPostgresAndRedis = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);
/**
 * Tests of real server processes on databases of their own (a SQLite file, or a PostgreSQL
 * cluster and a Redis they start and stop): run once, in the pass without TEST_DATABASE_URL.
 * `npm test` turns the faults off (TEST_FAULTS=off) where PostgreSQL's or Redis's programs are missing, and says so.
 */
const ownServers = [
  'src/faults.test.ts',
  'src/db/durability.test.ts',
  'src/modules/health/file-limit.test.ts',
  'src/modules/health/overload.test.ts',
];
const runOwnServers = !process.env.TEST_DATABASE_URL;
/**
 * Of those, the servers under load, which take both cores and measure what they serve: run last, alone on the machine.
 * The fault tests load theirs lightly (two votes at a time) and mostly wait for a service to stop and start.
 */
const underLoad = ['src/modules/health/overload.test.ts'];
const faultsOff = process.env.TEST_FAULTS === 'off' ? ['src/faults.test.ts'] : [];

/**
 * Tests that measure time or load a core (answer times, a benchmark, a server killed amid votes or
 * held to few files, services stopped under load), and tests whose one long loop of calls comes near
 * its timeout when it shares the cores (every route of the app, every odd input): each pass runs them
 * after its other tests, one file at a time (scripts/test.ts).
 */
const timed = [
  ...ownServers.filter((file) => !underLoad.includes(file)),
  'src/modules/auth/password-reset.test.ts',
  'src/modules/auth/account-export.test.ts',
  'src/modules/push/sender.test.ts',
  'src/modules/health/health.test.ts',
  'src/plugins/app/access.test.ts',
  'src/plugins/app/bad-input.test.ts',
  'bench/**/*.test.ts',
];
/** Tests that replace a module (vi.mock): only a module graph of their own keeps the stand-in from other files. */
const mocksModules = ['src/modules/auth/login.test.ts'];
const excluded = [
  ...configDefaults.exclude,
  ...(hasPostgresAndRedis ? [] : needsPostgresAndRedis),
  ...(runOwnServers ? faultsOff : ownServers),
];

export default defineConfig({
  test: {
    // On a PostgreSQL run (TEST_DATABASE_URL) it makes the database each test file copies.
    globalSetup: ['src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      // Most tests wait more than they compute (a mail window, a server starting, a worker's round): two files at a
      // time, even on two cores. Each worker imports the app once for all its files (isolate: false), where importing
      // it again for each file took most of the pass's time; every test makes its own app, database and servers.
      {
        extends: true,
        test: {
          name: 'server',
          include: ['src/**/*.test.ts'],
          exclude: [...excluded, ...timed, ...ownServers, ...mocksModules],
          maxWorkers: 2,
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'mocks', include: mocksModules, exclude: excluded, maxWorkers: 2, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: { name: 'timed', include: timed, exclude: excluded, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: { name: 'alone', include: underLoad, exclude: excluded, maxWorkers: 1, sequence: { groupOrder: 2 } },
      },
    ],
  },
});

import pino from 'pino';
import { buildApp } from './app.js';
import { loadConfig, useListeningAddress } from './config.js';
import { oneInstanceAtATime } from './db/locks.js';
import { migrateToLatest, openDatabase } from './db/index.js';
import { seedDemoAtStart } from './seed/demo-at-start.js';
import { seedReferenceData } from './seed/reference.js';

const config = loadConfig();
const logger = pino({ level: config.logLevel });
const database = openDatabase(config.databaseUrl, {
  poolSize: config.databasePoolSize,
  replicaUrls: config.databaseReplicaUrls,
  replicaMaxLagMs: config.databaseReplicaMaxLagMs,
});

await oneInstanceAtATime(database.db, database.dialect, async () => {
  const applied = await migrateToLatest(database);
  if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
  await seedReferenceData(database.db);
  await seedDemoAtStart(database.db, config, logger);
});

const app = await buildApp({ config, database, logger });

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  logger.info({ signal }, 'shutting down');
  // Stop taking requests, let those in flight finish, then close the database.
  const forced = setTimeout(() => process.exit(1), 10_000);
  forced.unref();
  await app.close();
  await database.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

// Connections waiting to be taken: Node's 511 overflowed when a thousand arrived at once under
// load, and a connection past it waits seconds for its SYN to be sent again. The kernel caps it
// at net.core.somaxconn (4096 on current Linux).
const address = await app.listen({ port: config.port, host: config.host, backlog: 4096 });
useListeningAddress(config, address);
// Asked for any free port (PORT=0, as tests start it), it says on stdout which it got, whatever the log level.
if (config.port === 0) process.stdout.write(`${JSON.stringify({ listening: address })}\n`);

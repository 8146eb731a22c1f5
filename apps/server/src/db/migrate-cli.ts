import { loadConfig } from '../config.js';
import { migrateToLatest, openDatabase } from './index.js';

const database = openDatabase(loadConfig().databaseUrl);
try {
  const applied = await migrateToLatest(database);
  console.log(applied.length > 0 ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
} finally {
  await database.close();
}

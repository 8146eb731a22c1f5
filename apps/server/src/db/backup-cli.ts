import path from 'node:path';
import { isPostgresUrl } from '../config.js';
import { backupSqlite, defaultBackupPath } from './backup.js';
import { targetDatabase } from './cli.js';

const source = targetDatabase(undefined);
if (isPostgresUrl(source)) {
  console.error('DATABASE_URL names a PostgreSQL database: back it up with pg_dump or the host’s snapshots.');
  process.exit(1);
}
const argument = process.argv[2];
const destination = argument
  ? path.resolve(process.env.INIT_CWD ?? process.cwd(), argument)
  : defaultBackupPath(source);
const { bytes } = await backupSqlite(source, destination);
console.log(`Backed up ${source} to ${destination} (${(bytes / 1024).toFixed(0)} KiB).`);

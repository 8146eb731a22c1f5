import { ROLES, roleSchema } from '@pollscope/contract';
import { loadConfig } from '../../config.js';
import { openDatabase } from '../../db/index.js';
import { setRoleByEmail } from './roles.js';

/**
 * `npm run user:role -- <email> <member|moderator|admin>`: sets a person's role on the configured
 * database (DATABASE_URL). Roles are read at each call that needs one, so it counts from the
 * person's next call, on every instance.
 */
const [email, role] = process.argv.slice(2);
const parsed = roleSchema.safeParse(role);
if (!email || !parsed.success) {
  console.error(`Usage: npm run user:role -- <email> <${ROLES.join('|')}>`);
  process.exit(2);
}
const database = openDatabase(loadConfig().databaseUrl);
try {
  if (await setRoleByEmail(database.db, email, parsed.data)) {
    console.log(`${email} is now ${parsed.data === 'admin' ? 'an admin' : `a ${parsed.data}`}.`);
  } else {
    console.error(`No account has the email ${email}.`);
    process.exitCode = 1;
  }
} finally {
  await database.close();
}

import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Db } from '../db/index.js';
import { DEMO_LOGIN, seedDemoCommunity } from './demo.js';

/** The names of this machine in an address: a server reached by them alone serves no one else. */
const THIS_MACHINE = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether `publicUrl` (PUBLIC_URL, `http://localhost:<PORT>` when unset) names this machine. */
export function isOnThisMachine(publicUrl: string): boolean {
  try {
    return THIS_MACHINE.has(new URL(publicUrl).hostname.toLowerCase());
  } catch {
    return false;
  }
}

/**
 * The demo account's password is published (the README, the start log), so whoever reaches a
 * server that has it can sign in as it. Without SEED_DEMO, the demo community is seeded only where
 * PUBLIC_URL is this machine, someone trying the app; elsewhere only with SEED_DEMO=1 said
 * outright, and `SEED_DEMO=0` never. Each start says what it did, and wherever PUBLIC_URL is not
 * this machine a warning is logged at every start for as long as the demo account exists, however
 * it came there. Returns whether the community was seeded now.
 */
export async function seedDemoAtStart(
  db: Db,
  config: Pick<Config, 'seedDemo' | 'publicUrl' | 'passwordHashCost'>,
  log: Pick<Logger, 'info' | 'warn'>,
): Promise<boolean> {
  const local = isOnThisMachine(config.publicUrl);
  const wanted = config.seedDemo ?? local;
  let seeded = false;
  if (wanted) {
    const demo = await seedDemoCommunity(db, config.passwordHashCost);
    seeded = demo !== null;
    if (demo) {
      const why = config.seedDemo === null ? 'PUBLIC_URL is this machine' : 'SEED_DEMO=1';
      log.info(
        { ...demo, publicUrl: config.publicUrl },
        `demo community seeded (${why}): sign in as ${demo.email} with password ${demo.password}`,
      );
    }
  } else if (config.seedDemo === null) {
    log.info(
      { publicUrl: config.publicUrl },
      'demo community not seeded: PUBLIC_URL is not this machine (SEED_DEMO=1 seeds it anyway)',
    );
  }
  if (!local && (await demoAccountExists(db))) {
    log.warn(
      { email: DEMO_LOGIN.email, publicUrl: config.publicUrl },
      `the demo account ${DEMO_LOGIN.email}, whose password is published, exists on this server of ${config.publicUrl}: anyone can sign in as it. Delete the account (signed in as it, from its personal info) unless this server is for trying the app`,
    );
  }
  return seeded;
}

async function demoAccountExists(db: Db): Promise<boolean> {
  return (
    (await db.selectFrom('users').select('id').where('email', '=', DEMO_LOGIN.email).executeTakeFirst()) !== undefined
  );
}

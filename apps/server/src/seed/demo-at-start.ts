import net from 'node:net';
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

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * Whether listening on `host` (HOST) takes connections from this machine alone: `localhost` or a loopback address
 * (127.0.0.0/8, ::1). `0.0.0.0`, `::` and any other name or address may be reached from elsewhere.
 */
export function isLoopbackHost(host: string): boolean {
  const address = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (address === 'localhost') return true;
  const family = net.isIP(address);
  return family !== 0 && LOOPBACK.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * Why other people may reach this server, or null when only this machine can: the address it listens on (HOST)
 * comes first, since a server on `0.0.0.0` takes anyone's connections whatever PUBLIC_URL says, and a server on
 * loopback behind a proxy of this machine is public under its PUBLIC_URL.
 */
export function reachableFromElsewhere(config: Pick<Config, 'host' | 'publicUrl'>): string | null {
  if (!isLoopbackHost(config.host)) return `it listens on ${config.host}, which other machines may reach`;
  if (!isOnThisMachine(config.publicUrl)) return `PUBLIC_URL ${config.publicUrl} is not this machine`;
  return null;
}

/**
 * The demo account's password is published (the README, the start log), so whoever reaches a
 * server that has it can sign in as it. Without SEED_DEMO, the demo community is seeded only on a
 * server that listens on loopback (HOST) and whose PUBLIC_URL is this machine, someone trying the
 * app; elsewhere only with SEED_DEMO=1 said outright, and `SEED_DEMO=0` never. Each start says
 * what it did, and on a server others may reach a warning is logged at every start for as long as
 * the demo account exists, however it came there. Returns whether the community was seeded now.
 */
export async function seedDemoAtStart(
  db: Db,
  config: Pick<Config, 'seedDemo' | 'host' | 'publicUrl' | 'passwordHashCost'>,
  log: Pick<Logger, 'info' | 'warn'>,
): Promise<boolean> {
  const elsewhere = reachableFromElsewhere(config);
  const wanted = config.seedDemo ?? elsewhere === null;
  const where = { host: config.host, publicUrl: config.publicUrl };
  let seeded = false;
  if (wanted) {
    const demo = await seedDemoCommunity(db, config.passwordHashCost);
    seeded = demo !== null;
    if (demo) {
      const why = config.seedDemo === null ? 'this machine alone can reach the server' : 'SEED_DEMO=1';
      log.info(
        { ...demo, ...where },
        `demo community seeded (${why}): sign in as ${demo.email} with password ${demo.password}`,
      );
    }
  } else if (config.seedDemo === null) {
    log.info(
      where,
      `demo community not seeded: ${elsewhere} (HOST=127.0.0.1 with PUBLIC_URL unset seeds it, to try the app; SEED_DEMO=1 seeds it anyway)`,
    );
  }
  if (elsewhere !== null && (await demoAccountExists(db))) {
    log.warn(
      { email: DEMO_LOGIN.email, ...where },
      `the demo account ${DEMO_LOGIN.email}, whose password is published, exists on this server, and ${elsewhere}: anyone can sign in as it. Delete the account (signed in as it, from its personal info) unless this server is for trying the app`,
    );
  }
  return seeded;
}

async function demoAccountExists(db: Db): Promise<boolean> {
  return (
    (await db.selectFrom('users').select('id').where('email', '=', DEMO_LOGIN.email).executeTakeFirst()) !== undefined
  );
}

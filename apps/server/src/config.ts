import { createECDH } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  /** A postgres:// URL, or a SQLite file path (":memory:" for a throwaway database). */
  databaseUrl: string;
  redisUrl: string | null;
  /** Starts every Redis key and channel, so that several deployments can share one Redis. */
  redisPrefix: string;
  /** Connections each instance keeps open to PostgreSQL at most, to the primary and to each replica. */
  databasePoolSize: number;
  /**
   * DATABASE_REPLICA_URL, comma separated: PostgreSQL streaming replicas of `databaseUrl` that take the reads which may
   * lag; none: every read goes to the primary.
   */
  databaseReplicaUrls: string[];
  /** A replica lagging more than this (ms) behind the primary takes no reads until it catches up. */
  databaseReplicaMaxLagMs: number;
  /** A comment is sent on an idle live stream this often, so that proxies keep it open. */
  liveHeartbeatSeconds: number;
  /**
   * Live streams (results and unread counts) one person may have open at once on an instance; one more closes their
   * oldest. 0: no bound.
   */
  liveStreamsPerPerson: number;
  /**
   * SEED_DEMO: `1` seeds the demo community on an empty database, `0` never; null (unset) seeds it only on a server
   * that listens on loopback (HOST) and whose PUBLIC_URL is this machine (seed/demo-at-start.ts).
   */
  seedDemo: boolean | null;
  rateLimits: boolean;
  /** Breakdown and relate groups smaller than this show no result. */
  minGroupSize: number;
  /** A token unused for this many seconds stops working. */
  tokenIdleSeconds: number;
  /** scrypt cost parameter N (a power of two). */
  passwordHashCost: number;
  logLevel: LogLevel;
  webDist: string;
  bodyLimit: number;
  /** Behind a load balancer: trust X-Forwarded-For for the client's address (rate limits). */
  trustProxy: boolean;
  // What each instance keeps in memory (plugins/app/memory.ts)
  /** Memory the first pages of feeds kept as JSON may take, in MB; 0 keeps none. */
  feedPagesMegabytes: number;
  /** Question cards kept at most; about 1.8 KB each. */
  questionCards: number;
  /**
   * Memory the viewers' own states may take, in MB: about 2 KB for someone with 40 answers, 15 likes and 10 follows.
   */
  viewerStatesMegabytes: number;
  /** Question ids kept in all by the lists people browse (authors', categories', tags'); about 8 bytes each. */
  questionListIds: number;
  /** The newest questions kept of each list; older pages are read from the database. */
  questionListWindow: number;
  /** Sessions an instance running alone keeps at most, about 200 bytes each. */
  keptSessions: number;
  /** (country, gender, birth year, choice) cells of breakdown's segment tables each instance keeps. */
  segmentTableCells: number;
  /** Cells (votes per pair of choices) of relate's pair tables each instance keeps. */
  pairTableCells: number;
  /** Questions whose related questions each instance keeps (each list for 10 minutes). */
  relatedListsKept: number;
  /** Pages of search matches each instance keeps, for everyone, until a question is asked or deleted. */
  searchPagesKept: number;
  /**
   * Each instance counts what is trending from the votes it hears of, and reads the counts again from the votes this
   * often.
   */
  trendingReloadSeconds: number;
  // Mail
  /**
   * The address links in mail and shared questions point to, without a trailing slash. Unset, it is
   * `http://localhost:<PORT>`, or with PORT=0 the address the server listens at (`useListeningAddress`).
   */
  publicUrl: string;
  /** An smtp:// or smtps:// URL mail is sent through, or null: each mail is written as a file in `mailDir`. */
  smtpUrl: string | null;
  /** Where mail is written without SMTP_URL: data/mail beside the default database. */
  mailDir: string;
  /** The From of every mail, e.g. `Pollscope <no-reply@example.com>`. */
  mailFrom: string;
  /** A person's notifications are gathered for at least this long into one mail. */
  emailBatchSeconds: number;
  // Sharing
  /** Memory the link preview pictures of questions (og:image) may take, in MB; about 50 KB each. */
  cardImagesMegabytes: number;
  // Web push
  /**
   * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (base64url), or null: the pair the server made once and keeps in the
   * database.
   */
  vapidKeys: VapidKeys | null;
  /** The contact push services see in each push's VAPID token: an `https:` or `mailto:` URL. */
  vapidSubject: string;
  /**
   * PUSH_ALLOW_PRIVATE_ENDPOINTS=1: subscriptions may name http:// and loopback, private or link-local addresses (tests
   * with a push service of their own).
   */
  pushAllowPrivateEndpoints: boolean;
  // Operations
  /** Lets callers other than loopback read /metrics with `Authorization: Bearer <token>`; null: loopback only. */
  metricsToken: string | null;
  /**
   * A request queue whose shortest wait (from being read to work beginning) stays above this (ms) for
   * half a second stands: requests are then started newest first, only while they waited less.
   */
  overloadQueueTargetMs: number;
  /** The longest wait (ms) while the queue drains, past which a request is refused with 503; 0: never refused. */
  overloadQueueTimeoutMs: number;
  /** Past this many requests being answered at once, more wait in the queue; 0: no bound. */
  overloadRequestsInFlight: number;
  /** Past this much JavaScript heap in use (MB) requests are refused with 503; 0: no bound. */
  overloadHeapMegabytes: number;
  /** Connections open at once past which a new one is closed as soon as it is accepted; 0: no bound. */
  maxConnections: number;
  // Moderation
  /** ADMIN_EMAILS, lower-cased: an account registered or signing in with one of these is an admin. */
  adminEmails: string[];
  /**
   * Different people, each with an account a day old that answered 10 questions, whose open reports of a question
   * hide it until a moderator decides.
   */
  reportHideThreshold: number;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function intFrom(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed)) throw new Error(`Expected a whole number, got "${value}"`);
  return parsed;
}

/**
 * Files an instance keeps open besides its connections: Node's own, the database's (SQLite's file,
 * log and shared memory, or PostgreSQL's pool), Redis's two, mail being sent, the web app's files
 * being read.
 */
const FILES_BESIDES_CONNECTIONS = 128;
/** The default bound where the open-file limit is very high or unlimited: each connection also costs memory. */
const MOST_CONNECTIONS_BY_DEFAULT = 10_000;

/**
 * The process's soft limit on open files (`ulimit -n`, systemd's LimitNOFILE), from Linux's /proc; 1,024 where it
 * cannot be read.
 */
function openFileLimit(): number {
  try {
    const line = fs
      .readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((candidate) => candidate.startsWith('Max open files'));
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    if (soft === 'unlimited') return Infinity;
    const limit = Number(soft);
    return Number.isInteger(limit) && limit > 0 ? limit : 1024;
  } catch {
    return 1024;
  }
}

/**
 * Past the open-file limit, accepting a connection fails with EMFILE, and so does everything else
 * that opens a file: the connections are bounded below it, so that those files can always open.
 */
function defaultMaxConnections(): number {
  return Math.max(1, Math.min(MOST_CONNECTIONS_BY_DEFAULT, openFileLimit() - FILES_BESIDES_CONNECTIONS));
}

/**
 * Whether a database URL names a PostgreSQL server; anything else is a SQLite file. Here with the
 * settings it reads, so that the config, which every layer reads, imports none of them.
 */
export function isPostgresUrl(url: string): boolean {
  return url.startsWith('postgres://') || url.startsWith('postgresql://');
}

/**
 * Replicas only make sense beside a PostgreSQL primary: a wrong setting stops the start rather than being ignored
 * unseen.
 */
function replicaUrlsFrom(value: string | undefined, databaseUrl: string): string[] {
  const urls = (value ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
  if (urls.length === 0) return [];
  if (!isPostgresUrl(databaseUrl))
    throw new Error(
      'DATABASE_REPLICA_URL is set, but DATABASE_URL is no PostgreSQL URL: replicas are of a PostgreSQL primary',
    );
  const notPostgres = urls.find((url) => !isPostgresUrl(url));
  if (notPostgres !== undefined)
    throw new Error(
      `DATABASE_REPLICA_URL takes postgres:// URLs, comma separated; "${notPostgres.replace(/\/\/[^@/]*@/, '//…@')}" is none`,
    );
  return urls;
}

function sqlitePath(url: string | undefined): string {
  if (!url) return path.join(repoRoot, 'data', 'pollscope.db');
  if (url.startsWith('sqlite:')) return url.slice('sqlite:'.length).replace(/^\/\//, '') || ':memory:';
  return url;
}

/** A wrong mail server would only show in the first mail's failure, hours later: it stops the start instead. */
/** A VAPID key pair, base64url: the public key as the browser takes it (65 bytes), the private one 32 bytes. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** A key pair that does not match would only show as every push refused: it stops the start instead. */
function vapidKeysFrom(publicKey: string | undefined, privateKey: string | undefined): VapidKeys | null {
  if (!publicKey && !privateKey) return null;
  const usage = 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together, as `npx web-push generate-vapid-keys` prints them';
  if (!publicKey || !privateKey)
    throw new Error(`${usage}; only ${publicKey ? 'VAPID_PUBLIC_KEY' : 'VAPID_PRIVATE_KEY'} is set`);
  const curve = createECDH('prime256v1');
  try {
    curve.setPrivateKey(Buffer.from(privateKey, 'base64url'));
  } catch {
    throw new Error(`${usage}; VAPID_PRIVATE_KEY is not a P-256 private key`);
  }
  if (curve.getPublicKey('base64url') !== publicKey)
    throw new Error(`${usage}; VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY`);
  return { publicKey, privateKey };
}

/**
 * Push services ask for a way to reach whoever sends (RFC 8292): the site when it is served over
 * https, else the address mail comes from. An `https:` or `mailto:` URL, or the start stops.
 */
function vapidSubjectFrom(value: string | undefined, publicUrl: string, mailFrom: string): string {
  if (!value)
    return publicUrl.startsWith('https://')
      ? publicUrl
      : `mailto:${/<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim()}`;
  if (!/^(https:\/\/[^/]|mailto:\S)/.test(value))
    throw new Error(
      `VAPID_SUBJECT must be an https: URL or a mailto: address, such as mailto:ops@example.com; it is "${value}"`,
    );
  return value;
}

function smtpUrlFrom(value: string | undefined): string | null {
  if (!value) return null;
  const usage = 'SMTP_URL must be smtp://user:password@host:port or smtps://user:password@host:port';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${usage}; it is not a URL`);
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error(`${usage}; it starts with ${url.protocol}//`);
  if (!url.hostname) throw new Error(`${usage}; it names no host`);
  return value;
}

/**
 * Asked for any free port (PORT=0, as the tests start it) and told no PUBLIC_URL, the server names
 * itself by the address it listens at, which no one could have told it in advance. Called as soon
 * as it listens.
 */
export function useListeningAddress(config: Config, address: string, env: NodeJS.ProcessEnv = process.env): void {
  if (config.port === 0 && !env.PUBLIC_URL) config.publicUrl = address;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const url = env.DATABASE_URL;
  const port = intFrom(env.PORT, 3000);
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  const mailFrom = env.MAIL_FROM || 'Pollscope <no-reply@localhost>';
  const databaseUrl = url && isPostgresUrl(url) ? url : sqlitePath(url);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    databaseUrl,
    redisUrl: env.REDIS_URL || null,
    redisPrefix: env.REDIS_PREFIX || 'pollscope:',
    databasePoolSize: intFrom(env.DATABASE_POOL_SIZE, 10),
    databaseReplicaUrls: replicaUrlsFrom(env.DATABASE_REPLICA_URL, databaseUrl),
    databaseReplicaMaxLagMs: intFrom(env.DATABASE_REPLICA_MAX_LAG_MS, 2_000),
    liveHeartbeatSeconds: intFrom(env.LIVE_HEARTBEAT_SECONDS, 25),
    liveStreamsPerPerson: intFrom(env.LIVE_STREAMS_PER_PERSON, 20),
    seedDemo:
      env.SEED_DEMO === '1' || env.SEED_DEMO === 'true'
        ? true
        : env.SEED_DEMO === '0' || env.SEED_DEMO === 'false'
          ? false
          : null,
    rateLimits: env.RATE_LIMITS !== 'off',
    minGroupSize: intFrom(env.MIN_GROUP_SIZE, 5),
    tokenIdleSeconds: intFrom(env.TOKEN_IDLE_SECONDS, 30 * 24 * 3600),
    passwordHashCost: intFrom(env.PASSWORD_HASH_COST, 16384),
    logLevel: (env.LOG_LEVEL as LogLevel) || 'info',
    webDist: env.WEB_DIST || path.join(repoRoot, 'apps', 'web', 'dist'),
    bodyLimit: intFrom(env.BODY_LIMIT, 64 * 1024),
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    feedPagesMegabytes: intFrom(env.FEED_PAGES_MB, 48),
    questionCards: intFrom(env.QUESTION_CARDS, 20_000),
    viewerStatesMegabytes: intFrom(env.VIEWER_STATES_MB, 24),
    questionListIds: intFrom(env.QUESTION_LIST_IDS, 2_000_000),
    questionListWindow: intFrom(env.QUESTION_LIST_WINDOW, 1_000),
    keptSessions: intFrom(env.KEPT_SESSIONS, 50_000),
    segmentTableCells: intFrom(env.SEGMENT_TABLE_CELLS, 50_000),
    pairTableCells: intFrom(env.PAIR_TABLE_CELLS, 100_000),
    relatedListsKept: intFrom(env.RELATED_LISTS_KEPT, 2_000),
    searchPagesKept: intFrom(env.SEARCH_PAGES_KEPT, 2_000),
    trendingReloadSeconds: intFrom(env.TRENDING_RELOAD_SECONDS, 600),
    // Mail
    publicUrl,
    smtpUrl: smtpUrlFrom(env.SMTP_URL),
    mailDir: env.MAIL_DIR || path.join(repoRoot, 'data', 'mail'),
    mailFrom,
    emailBatchSeconds: intFrom(env.EMAIL_BATCH_SECONDS, 3600),
    // Sharing
    cardImagesMegabytes: intFrom(env.CARD_IMAGES_MB, 16),
    // Web push
    vapidKeys: vapidKeysFrom(env.VAPID_PUBLIC_KEY, env.VAPID_PRIVATE_KEY),
    vapidSubject: vapidSubjectFrom(env.VAPID_SUBJECT, publicUrl, mailFrom),
    pushAllowPrivateEndpoints: env.PUSH_ALLOW_PRIVATE_ENDPOINTS === '1' || env.PUSH_ALLOW_PRIVATE_ENDPOINTS === 'true',
    // Operations
    metricsToken: env.METRICS_TOKEN || null,
    overloadQueueTargetMs: intFrom(env.OVERLOAD_QUEUE_TARGET_MS, 150),
    overloadQueueTimeoutMs: intFrom(env.OVERLOAD_QUEUE_TIMEOUT_MS, 2000),
    overloadRequestsInFlight: intFrom(env.OVERLOAD_REQUESTS_IN_FLIGHT, 500),
    // Near the heap's limit V8 collects over and over and every request slows: refused before that.
    overloadHeapMegabytes: intFrom(
      env.OVERLOAD_HEAP_MB,
      Math.floor((0.9 * v8.getHeapStatistics().heap_size_limit) / 2 ** 20),
    ),
    maxConnections: intFrom(env.MAX_CONNECTIONS, defaultMaxConnections()),
    // Moderation
    adminEmails: (env.ADMIN_EMAILS ?? '')
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter((email) => email !== ''),
    reportHideThreshold: Math.max(1, intFrom(env.REPORT_HIDE_THRESHOLD, 3)),
  };
}

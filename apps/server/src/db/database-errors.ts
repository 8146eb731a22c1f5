/**
 * What a database's error says, on SQLite and PostgreSQL alike: a row already there, a row gone, a
 * conflict to run again, a database that cannot serve now.
 */

export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** Network errors of a connection to PostgreSQL that was refused, cut or never answered. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * PostgreSQL's SQLSTATEs for a server that cannot serve now: shutting down or starting
 * (57P01 to 57P03), out of connections (53300), disk or memory (53100, 53200).
 */
const POSTGRES_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300', '53100', '53200']);
/** What node-postgres says of a connection it lost or could not get in time; these errors carry no code. */
const POSTGRES_LOST =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * Whether a query failed because the database cannot be reached or cannot write now (PostgreSQL
 * stopped or restarting, SQLite's disk full or its file locked past the busy timeout), rather than
 * because of the query: the request can succeed later, so it is answered 503.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof AggregateError && error.errors.some(isDatabaseUnavailable)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (UNREACHABLE_CODES.has(code) || POSTGRES_UNAVAILABLE.has(code) || code.startsWith('08')) return true;
    if (code === 'SQLITE_FULL' || code === 'SQLITE_BUSY' || code.startsWith('SQLITE_IOERR')) return true;
  }
  return POSTGRES_LOST.test(error.message);
}

/** A write that refers to a row another transaction deleted meanwhile: a question or person gone with their account. */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}

/**
 * A transaction PostgreSQL ended to settle a conflict with another (a deadlock, or a row it
 * relied on changed): run again, it sees the other's work and goes through.
 */
export function isWriteConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001' || isForeignKeyViolation(error);
}

/**
 * Runs `write` (a whole transaction) again when PostgreSQL ended it to settle a conflict, up to `attempts` times in
 * all.
 */
export async function retryingConflicts<T>(write: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= attempts || !isWriteConflict(error)) throw error;
    }
  }
}

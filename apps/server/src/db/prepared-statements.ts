import { createHash } from 'node:crypto';
import pg from 'pg';

/** Statements one connection keeps prepared at most: lists of ids make a text per length, and each costs the server memory. */
const MOST_PREPARED_PER_CONNECTION = 256;
/** What PostgreSQL prepares: transaction control and the like go as they come. */
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * A connection that prepares a statement the second time it is asked for it, named after its
 * text: PostgreSQL then parses it once per connection, and after a few runs plans it once too.
 * Unnamed, every call was parsed and planned again, which for the app's short statements cost
 * more than running them (a session's lookup under load: 0.21 ms planned, 0.04 ms run).
 */
export class PreparingClient extends pg.Client {
  /** The name of each statement prepared on this connection, by its text. */
  private readonly names = new Map<string, string>();
  /** Texts asked once on this connection: the second time, they are prepared. */
  private readonly askedOnce = new Set<string>();

  constructor(config?: pg.ClientConfig) {
    super(config);
    const query = this.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((...args: unknown[]) => {
      const [text, values] = args;
      if (typeof text !== 'string' || !Array.isArray(values) || args.length !== 2) return query(...args);
      const name = this.nameFor(text);
      return name === null ? query(text, values) : query({ name, text, values });
    }) as typeof this.query;
  }

  /** The statement's name once it is asked again and may be prepared, else null. */
  private nameFor(text: string): string | null {
    const name = this.names.get(text);
    if (name !== undefined) return name;
    if (!PREPARABLE.test(text)) return null;
    if (!this.askedOnce.has(text)) {
      if (this.askedOnce.size < MOST_PREPARED_PER_CONNECTION * 4) this.askedOnce.add(text);
      return null;
    }
    if (this.names.size >= MOST_PREPARED_PER_CONNECTION) return null;
    this.askedOnce.delete(text);
    const named = `s${createHash('sha1').update(text).digest('base64url')}`;
    this.names.set(text, named);
    return named;
  }
}

import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { isPostgresUrl } from '../src/config.js';
import type { Database } from '../src/db/schema.js';

type ColumnType = 'int' | 'float8' | 'text';
type ColumnsOf<T extends keyof Database> = [column: keyof Database[T] & string, type: ColumnType][];

/** The columns the generator writes, in the order of its rows; ids it leaves out are the database's to give. */
const TABLES = {
  users: [
    ['id', 'int'],
    ['email', 'text'],
    ['password_hash', 'text'],
    ['first_name', 'text'],
    ['search_name', 'text'],
    ['birthdate', 'text'],
    ['birth_year', 'int'],
    ['gender', 'text'],
    ['country_id', 'int'],
    ['favorite_category_id', 'int'],
    ['question_count', 'int'],
    ['answer_count', 'int'],
    ['like_count', 'int'],
    ['created_at', 'text'],
  ] satisfies ColumnsOf<'users'>,
  sessions: [
    ['token_hash', 'text'],
    ['user_id', 'int'],
    ['created_at', 'text'],
    ['last_used_at', 'text'],
  ] satisfies ColumnsOf<'sessions'>,
  questions: [
    ['id', 'int'],
    ['user_id', 'int'],
    ['type', 'text'],
    ['title', 'text'],
    ['category_id', 'int'],
    ['choice_labels', 'text'],
    ['range_min', 'int'],
    ['range_max', 'int'],
    ['published_at', 'text'],
    ['vote_count', 'int'],
    ['like_count', 'int'],
  ] satisfies ColumnsOf<'questions'>,
  question_tags: [
    ['question_id', 'int'],
    ['tag', 'text'],
  ] satisfies ColumnsOf<'question_tags'>,
  question_search_documents: [
    ['question_id', 'int'],
    ['title', 'text'],
    ['tags', 'text'],
    ['choices', 'text'],
  ] satisfies ColumnsOf<'question_search_documents'>,
  votes: [
    ['question_id', 'int'],
    ['user_id', 'int'],
    ['choice', 'float8'],
    ['created_at', 'text'],
    ['seq', 'int'],
    ['gender', 'text'],
    ['birth_year', 'int'],
    ['country_id', 'int'],
  ] satisfies ColumnsOf<'votes'>,
  vote_tallies: [
    ['question_id', 'int'],
    ['choice', 'float8'],
    ['count', 'int'],
  ] satisfies ColumnsOf<'vote_tallies'>,
  vote_segments: [
    ['question_id', 'int'],
    ['country_id', 'int'],
    ['gender', 'text'],
    ['birth_year', 'int'],
    ['choice', 'float8'],
    ['count', 'int'],
  ] satisfies ColumnsOf<'vote_segments'>,
  likes: [
    ['question_id', 'int'],
    ['user_id', 'int'],
    ['created_at', 'text'],
  ] satisfies ColumnsOf<'likes'>,
  passes: [
    ['user_id', 'int'],
    ['question_id', 'int'],
  ] satisfies ColumnsOf<'passes'>,
  follows: [
    ['follower_id', 'int'],
    ['followee_id', 'int'],
    ['created_at', 'text'],
  ] satisfies ColumnsOf<'follows'>,
  blocks: [
    ['blocker_id', 'int'],
    ['blocked_id', 'int'],
    ['created_at', 'text'],
  ] satisfies ColumnsOf<'blocks'>,
  daily_activity: [
    ['day', 'text'],
    ['answers', 'int'],
    ['questions', 'int'],
    ['users', 'int'],
    ['likes', 'int'],
  ] satisfies ColumnsOf<'daily_activity'>,
};

export type BulkTable = keyof typeof TABLES;

/**
 * Writes rows in large batches, each batch one transaction: SQLite through one prepared
 * statement per table, PostgreSQL through one multi-row insert per batch (a column array each,
 * unnested), so a batch costs one round trip.
 */
export interface BulkWriter {
  /** Queues a row, its values in the table's column order; a full queue is written at once. */
  add(table: BulkTable, row: unknown[]): Promise<void>;
  /** Writes every queued row. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

abstract class QueueingWriter implements BulkWriter {
  private readonly queues = new Map<BulkTable, unknown[][]>();

  constructor(private readonly batchSize: number) {}

  protected abstract write(table: BulkTable, rows: unknown[][]): Promise<void>;
  abstract close(): Promise<void>;

  async add(table: BulkTable, row: unknown[]): Promise<void> {
    let queue = this.queues.get(table);
    if (!queue) this.queues.set(table, (queue = []));
    queue.push(row);
    if (queue.length >= this.batchSize) await this.writeQueue(table);
  }

  async flush(): Promise<void> {
    for (const table of this.queues.keys()) await this.writeQueue(table);
  }

  private async writeQueue(table: BulkTable): Promise<void> {
    const rows = this.queues.get(table) ?? [];
    this.queues.set(table, []);
    if (rows.length > 0) await this.write(table, rows);
  }
}

class SqliteWriter extends QueueingWriter {
  private readonly sqlite: SqliteDatabase.Database;
  private readonly statements = new Map<BulkTable, SqliteDatabase.Statement>();

  constructor(path: string) {
    super(50_000);
    this.sqlite = new SqliteDatabase(path);
    // A half-written community is thrown away, not recovered: no sync, and a large cache for
    // the indexes that are not filled in key order (votes by user).
    this.sqlite.pragma('synchronous = OFF');
    this.sqlite.pragma('cache_size = -524288');
    this.sqlite.pragma('temp_store = MEMORY');
  }

  protected async write(table: BulkTable, rows: unknown[][]): Promise<void> {
    let statement = this.statements.get(table);
    if (!statement) {
      const columns = TABLES[table].map(([column]) => column);
      statement = this.sqlite.prepare(
        `insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`,
      );
      this.statements.set(table, statement);
    }
    const insert = statement;
    this.sqlite.transaction(() => {
      for (const row of rows) insert.run(row);
    })();
  }

  async close(): Promise<void> {
    this.sqlite.close();
  }
}

class PostgresWriter extends QueueingWriter {
  private constructor(private readonly client: pg.Client) {
    super(20_000);
  }

  static async open(url: string): Promise<PostgresWriter> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // Each batch commits without waiting for its WAL to reach the disk: a crash mid-way means
    // generating again anyway.
    await client.query('set synchronous_commit = off');
    return new PostgresWriter(client);
  }

  protected async write(table: BulkTable, rows: unknown[][]): Promise<void> {
    const columns = TABLES[table];
    const arrays = columns.map((_, index) => rows.map((row) => row[index]));
    const unnest = columns.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ');
    await this.client.query(
      `insert into ${table} (${columns.map(([column]) => column).join(', ')}) select * from unnest(${unnest})`,
      arrays,
    );
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}

export function openBulkWriter(url: string): Promise<BulkWriter> {
  return isPostgresUrl(url) ? PostgresWriter.open(url) : Promise.resolve(new SqliteWriter(url));
}

import type { Kysely } from 'kysely';

/**
 * An account's life. `password_reset_tokens` holds the hash of each token a forgotten-password
 * mail carries, until it is used or lapses. `questions.votes_removed` counts the votes deleted
 * with their voters' accounts: a vote's `seq` goes on from `vote_count + votes_removed`, so no
 * two votes of a question ever share one, and what is kept in memory of a question's votes can
 * tell that some were taken away.
 */
export function accountLife() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('password_reset_tokens')
        .addColumn('token_hash', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('password_reset_tokens_by_user')
        .on('password_reset_tokens')
        .column('user_id')
        .execute();
      await db.schema
        .createIndex('password_reset_tokens_by_expiry')
        .on('password_reset_tokens')
        .column('expires_at')
        .execute();

      await db.schema
        .alterTable('questions')
        .addColumn('votes_removed', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createIndex('notification_actors_by_actor')
        .on('notification_actors')
        .column('actor_id')
        .execute();
      await db.schema.createIndex('passes_by_question').on('passes').column('question_id').execute();
      await db.schema.createIndex('mail_outbox_by_recipient').on('mail_outbox').column('recipient').execute();
    },
  };
}

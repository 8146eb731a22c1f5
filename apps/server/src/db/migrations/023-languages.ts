import type { Kysely } from 'kysely';

/**
 * A person's languages (CONTRACT.md §7): `users.language`, the interface's and mail's, one of the UI locales (every
 * account made before is `en`, the only language there was); `users.question_languages`, the ISO 639-1 codes of the
 * questions they want to see as a JSON array, null for all.
 */
export function languages() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('users')
        .addColumn('language', 'text', (col) => col.notNull().defaultTo('en'))
        .execute();
      await db.schema.alterTable('users').addColumn('question_languages', 'text').execute();
    },
  };
}

import type { Kysely } from 'kysely';

/**
 * `notifications.mailed_in`: the `Message-ID` of the mail that listed a notification. When an
 * account is deleted, a mail still waiting to be sent that names the person is taken back and
 * what it listed is mailed again without them.
 */
export function mailOfEachNotification() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('notifications').addColumn('mailed_in', 'text').execute();
      await db.schema.createIndex('notifications_by_mail').on('notifications').column('mailed_in').execute();
    },
  };
}

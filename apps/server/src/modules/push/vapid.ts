import webPush from 'web-push';
import type { VapidKeys } from '../../config.js';
import type { Db } from '../../db/index.js';

/**
 * The key pair kept in the database, made here when there is none. Every instance must sign with
 * the same key, the one browsers subscribed with: of instances starting at once, each offers a
 * pair of its own, the first written is kept, and all read that one back.
 */
export async function keptVapidKeys(db: Db): Promise<VapidKeys> {
  const offered = webPush.generateVAPIDKeys();
  await db
    .insertInto('vapid_keys')
    .values({
      id: 1,
      public_key: offered.publicKey,
      private_key: offered.privateKey,
      created_at: new Date().toISOString(),
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
  const kept = await db
    .selectFrom('vapid_keys')
    .select(['public_key', 'private_key'])
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return { publicKey: kept.public_key, privateKey: kept.private_key };
}

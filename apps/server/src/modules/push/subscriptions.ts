import type { AccountExport, PushSubscriptionBody } from '@pollscope/contract';
import { ECDH } from 'node:crypto';
import type { Db } from '../../db/index.js';
import { BadRequestError } from '../../errors.js';
import { endpointRefusal } from './endpoint.js';

/**
 * Devices one person may have push on at once: subscribing one more drops their oldest, so that
 * nobody can make the server post each of their notifications to a great many addresses.
 */
export const SUBSCRIPTIONS_PER_PERSON = 10;

const base64url = /^[A-Za-z0-9_-]+={0,2}$/;

/**
 * The device's P-256 public key, uncompressed (65 bytes), as a point on the curve: a key that is not would fail every
 * push to it.
 */
function isP256PublicKey(key: string): boolean {
  const bytes = Buffer.from(key, 'base64url');
  if (!base64url.test(key) || bytes.length !== 65 || bytes[0] !== 4) return false;
  try {
    ECDH.convertKey(bytes, 'prime256v1');
    return true;
  } catch {
    return false;
  }
}

/** What is wrong with a subscription, field by field; empty when nothing is. */
function subscriptionErrors({ endpoint, keys }: PushSubscriptionBody, allowPrivate: boolean): Record<string, string> {
  const errors: Record<string, string> = {};
  const refusal = endpointRefusal(endpoint, allowPrivate);
  if (refusal) errors.endpoint = refusal;
  if (!isP256PublicKey(keys.p256dh)) errors['keys.p256dh'] = 'Must be a P-256 public key, base64url';
  if (!base64url.test(keys.auth) || Buffer.from(keys.auth, 'base64url').length !== 16)
    errors['keys.auth'] = 'Must be 16 bytes, base64url';
  return errors;
}

/**
 * Keeps the device's subscription for the person, as part of the session of `sessionTokenHash`,
 * which it ends with (migration 021). The same endpoint again (the browser's keys renewed, or
 * another person signed in on it) updates its row: an endpoint is one device, pushed to for one
 * person in one session.
 */
export async function subscribe(
  db: Db,
  userId: number,
  sessionTokenHash: string,
  subscription: PushSubscriptionBody,
  allowPrivate: boolean,
): Promise<void> {
  const errors = subscriptionErrors(subscription, allowPrivate);
  if (Object.keys(errors).length > 0) throw new BadRequestError(Object.values(errors)[0], errors);
  const { endpoint, keys } = subscription;
  const device = { user_id: userId, p256dh: keys.p256dh, auth: keys.auth, session_token_hash: sessionTokenHash };
  // A session ended since this call found it makes the insert a foreign key violation, answered 404.
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('push_subscriptions')
      .values({ ...device, endpoint, created_at: new Date().toISOString() })
      .onConflict((conflict) => conflict.column('endpoint').doUpdateSet(device))
      .execute();
    await trx
      .deleteFrom('push_subscriptions')
      .where('user_id', '=', userId)
      .where('id', 'not in', (eb) =>
        eb
          .selectFrom('push_subscriptions')
          .select('id')
          .where('user_id', '=', userId)
          .orderBy('id', 'desc')
          .limit(SUBSCRIPTIONS_PER_PERSON),
      )
      .execute();
  });
}

/** Ends the person's subscription of this endpoint, if they have it; what waited to be pushed to it goes with it. */
export async function unsubscribe(db: Db, userId: number, endpoint: string): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('endpoint', '=', endpoint).where('user_id', '=', userId).execute();
}

/**
 * Ends the person's subscriptions that belong to no session, kept from before subscriptions had one (migration 021):
 * what ends every other session (a new password, a suspension) ends them too, as nobody can tell whose they are.
 */
export async function endSessionlessSubscriptions(trx: Db, userId: number): Promise<void> {
  await trx
    .deleteFrom('push_subscriptions')
    .where('user_id', '=', userId)
    .where('session_token_hash', 'is', null)
    .execute();
}

/** The person's subscriptions as their account's export lists them, oldest first: the endpoints, never the keys. */
export async function subscriptionsOf(db: Db, userId: number): Promise<AccountExport['push_subscriptions']> {
  return db
    .selectFrom('push_subscriptions')
    .select(['endpoint', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

/** Ends a subscription whose push service answered that it is gone (404, 410); returns whether it was still there. */
export async function removeGoneSubscription(db: Db, subscriptionId: number): Promise<boolean> {
  const { numDeletedRows } = await db
    .deleteFrom('push_subscriptions')
    .where('id', '=', subscriptionId)
    .executeTakeFirst();
  return numDeletedRows > 0n;
}

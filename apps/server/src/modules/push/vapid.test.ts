import { api, pushKeySchema } from '@pollscope/contract';
import { createECDH } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { openDatabase } from '../../db/index.js';
import { client, createTestApp, createTestDatabase } from '../../test/helper.js';
import { keptVapidKeys } from './vapid.js';

/** A key pair as `npx web-push generate-vapid-keys` prints it. */
function aKeyPair() {
  const curve = createECDH('prime256v1');
  curve.generateKeys();
  const privateKey = curve.getPrivateKey();
  return {
    VAPID_PUBLIC_KEY: curve.getPublicKey('base64url'),
    VAPID_PRIVATE_KEY: Buffer.concat([Buffer.alloc(32 - privateKey.length), privateKey]).toString('base64url'),
  };
}

describe('the VAPID settings', () => {
  it('take a key pair from VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, and stop the start when they do not match or one is missing', () => {
    const pair = aKeyPair();
    expect(loadConfig(pair).vapidKeys).toEqual({
      publicKey: pair.VAPID_PUBLIC_KEY,
      privateKey: pair.VAPID_PRIVATE_KEY,
    });
    expect(loadConfig({}).vapidKeys).toBeNull();
    expect(() => loadConfig({ ...pair, VAPID_PUBLIC_KEY: aKeyPair().VAPID_PUBLIC_KEY })).toThrow(
      'VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY',
    );
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: pair.VAPID_PUBLIC_KEY })).toThrow('only VAPID_PUBLIC_KEY is set');
    expect(() => loadConfig({ VAPID_PRIVATE_KEY: pair.VAPID_PRIVATE_KEY })).toThrow('only VAPID_PRIVATE_KEY is set');
  });

  it('name a contact for the push services: VAPID_SUBJECT, else the site over https, else the address mail comes from', () => {
    expect(loadConfig({ VAPID_SUBJECT: 'mailto:ops@example.com' }).vapidSubject).toBe('mailto:ops@example.com');
    expect(loadConfig({ PUBLIC_URL: 'https://polls.example.com/' }).vapidSubject).toBe('https://polls.example.com');
    expect(loadConfig({ MAIL_FROM: 'Pollscope <hello@polls.example.com>' }).vapidSubject).toBe(
      'mailto:hello@polls.example.com',
    );
    expect(loadConfig({}).vapidSubject).toBe('mailto:no-reply@localhost');
    for (const subject of ['ops@example.com', 'http://polls.example.com', 'mailto:']) {
      expect(() => loadConfig({ VAPID_SUBJECT: subject }), subject).toThrow(
        'VAPID_SUBJECT must be an https: URL or a mailto: address',
      );
    }
  });

  it('are the key the server gives, and then none is made', async () => {
    const pair = aKeyPair();
    const ctx = await createTestApp({ vapidKeys: loadConfig(pair).vapidKeys });
    try {
      expect(await client(ctx.app).get(api.pushKey, pushKeySchema)).toEqual({ key: pair.VAPID_PUBLIC_KEY });
      expect(await ctx.database.db.selectFrom('vapid_keys').selectAll().execute()).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});

describe('the key pair kept in the database', () => {
  it('is one, whichever of several instances starting at once makes it', async () => {
    const testDatabase = await createTestDatabase();
    const { db, close } = openDatabase(testDatabase.url);
    try {
      const kept = await Promise.all(Array.from({ length: 8 }, () => keptVapidKeys(db)));
      expect(new Set(kept.map((keys) => JSON.stringify(keys))).size).toBe(1);
      const rows = await db.selectFrom('vapid_keys').select(['public_key', 'private_key']).execute();
      expect(rows).toEqual([{ public_key: kept[0].publicKey, private_key: kept[0].privateKey }]);
      // A pair that signs: its public key is its private key's.
      const curve = createECDH('prime256v1');
      curve.setPrivateKey(Buffer.from(kept[0].privateKey, 'base64url'));
      expect(curve.getPublicKey('base64url')).toBe(kept[0].publicKey);
    } finally {
      await close();
      await testDatabase.drop();
    }
  });
});

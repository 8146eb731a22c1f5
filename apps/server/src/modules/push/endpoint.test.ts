import { api, connectedSchema } from '@pollscope/contract';
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestContext } from '../../test/helper.js';
import { aDevice, startPushService, type TestPushService } from '../../test/push-service.js';
import { endpointRefusal, publicAddressesOnly } from './endpoint.js';

/** Addresses and names the server must never post to: its own machine, its network, the cloud's metadata service. */
const refused = [
  'http://fcm.googleapis.com/fcm/send/abc',
  'ftp://push.example.com/abc',
  'https://localhost/push',
  'https://LOCALHOST./push',
  'https://push.localhost/push',
  'https://127.0.0.1/push',
  'https://127.1/push',
  'https://2130706433/push',
  'https://0x7f.0.0.1/push',
  'https://0.0.0.0/push',
  'https://10.1.2.3/push',
  'https://172.16.0.1/push',
  'https://172.31.255.255/push',
  'https://192.168.1.1:8443/push',
  'https://100.64.0.1/push',
  'https://169.254.169.254/latest/meta-data/',
  'https://224.0.0.1/push',
  'https://[::1]/push',
  'https://[::]/push',
  'https://[::ffff:127.0.0.1]/push',
  'https://[::ffff:10.0.0.1]/push',
  'https://[fe80::1]/push',
  'https://[fd12:3456::1]/push',
  'https://[fc00::1]/push',
  'https://[ff02::1]/push',
  'https://[64:ff9b::7f00:1]/push',
  'https://[2002:7f00:1::]/push',
  'https://metadata/computeMetadata/v1/',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://printer.local/push',
  'https://nas.home.arpa/push',
];

/** Push services' endpoints as browsers give them, and any public address. */
const allowed = [
  'https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b',
  'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk',
  'https://web.push.apple.com/QGuQyavXutnMH4Q4n4KPE',
  'https://wns2-bl2p.notify.windows.com/w/?token=BQYAAAD',
  'https://push.example.com:8443/send',
  'https://8.8.8.8/push',
  'https://172.32.0.1/push',
  'https://[2001:4860:4860::8888]/push',
];

describe('the endpoint rule', () => {
  it('refuses http, loopback, private, link-local and local names in every spelling, and allows push services', () => {
    for (const endpoint of refused) expect(endpointRefusal(endpoint, false), endpoint).not.toBeNull();
    for (const endpoint of allowed) expect(endpointRefusal(endpoint, false), endpoint).toBeNull();
  });

  it('is lifted by PUSH_ALLOW_PRIVATE_ENDPOINTS, for http:// and https:// alike', () => {
    for (const endpoint of [
      'http://127.0.0.1:9000/push',
      'https://localhost/push',
      'http://[::1]:9000/push',
      'https://10.1.2.3/push',
    ]) {
      expect(endpointRefusal(endpoint, true), endpoint).toBeNull();
    }
    expect(endpointRefusal('ftp://127.0.0.1/push', true)).not.toBeNull();
  });

  it('checks the addresses a name resolves to where the server connects', async () => {
    const lookup = (hostname: string, all: boolean) =>
      new Promise<{ error: NodeJS.ErrnoException | null; addresses: string | LookupAddress[] }>((resolve) =>
        publicAddressesOnly(hostname, { all }, (error, addresses) => resolve({ error, addresses })),
      );
    // localhost resolves to the loopback address on every machine.
    for (const all of [true, false]) {
      const { error } = await lookup('localhost', all);
      expect(error?.code).toBe('ENOTPUBLIC');
      expect(error?.message).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), which is not a public address$/);
    }
    expect(await lookup('93.184.215.14', true)).toEqual({
      error: null,
      addresses: [{ address: '93.184.215.14', family: 4 }],
    });
    expect(await lookup('93.184.215.14', false)).toEqual({ error: null, addresses: '93.184.215.14' });
  });
});

describe('with the rule in force', () => {
  let ctx: TestContext;
  let service: TestPushService;
  beforeAll(async () => {
    service = await startPushService();
    ctx = await createTestApp();
  });
  afterAll(async () => {
    await ctx?.close();
    await service?.stop();
  });

  it('a subscription to such an endpoint is refused with 400 and the field’s error, and nothing is kept', async () => {
    const user = await signUp(ctx);
    const keys = aDevice(service).keys;
    for (const endpoint of [...refused.filter((url) => URL.canParse(url)), `${service.origin}/push/1`]) {
      const reply = await user.api.raw('POST', api.pushSubscriptions, { endpoint, keys });
      expect(reply.status, endpoint).toBe(400);
      const { message, errors } = reply.error();
      expect(errors?.endpoint, endpoint).toBe(message);
    }
    expect(await ctx.database.db.selectFrom('push_subscriptions').selectAll().execute()).toEqual([]);
    const accepted = await user.api.raw('POST', api.pushSubscriptions, { endpoint: allowed[0], keys });
    expect(accepted.status).toBe(201);
    // JSON like every answer, with nothing to say: the web app's client reads the body of every answer but a 204.
    expect(accepted.json()).toBeNull();
  });

  it('a subscription kept from when the rule was lifted is never posted to', async () => {
    const user = await signUp(ctx);
    const device = aDevice(service);
    // As if subscribed while PUSH_ALLOW_PRIVATE_ENDPOINTS was set, which the server runs without now.
    await ctx.database.db
      .insertInto('push_subscriptions')
      .values({
        user_id: user.id,
        endpoint: device.endpoint,
        p256dh: device.keys.p256dh,
        auth: device.keys.auth,
        created_at: new Date().toISOString(),
      })
      .execute();
    await (await signUp(ctx)).api.post(api.follow(user.id), connectedSchema);
    await ctx.app.push.round();
    expect(service.received).toEqual([]);
    expect(await ctx.database.db.selectFrom('push_outbox').select(['attempts', 'last_error']).execute()).toEqual([
      { attempts: 1, last_error: `Must be an https:// URL: ${device.endpoint}` },
    ]);
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import webPush from 'web-push';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { aDevice, startPushService, type TestPushService } from '../../test/push-service.js';
import { createPushSender, type PushMessage } from './sender.js';

const vapid = { ...webPush.generateVAPIDKeys(), subject: 'mailto:ops@pollscope.example' };
const message: PushMessage = {
  payload: {
    kind: 'follow',
    title: 'Bob followed you',
    body: 'See what they ask on Pollscope',
    url: '/user/2',
    notification_id: 1,
  },
  ttlSeconds: 60,
  urgency: 'normal',
  topic: 'n1',
};

let service: TestPushService;
beforeAll(async () => {
  service = await startPushService();
});
afterAll(() => service.stop());

it('gives up on a push service that does not answer in time, and says so', async () => {
  // Takes the request and never answers.
  const silent = http.createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const sender = createPushSender(vapid, true, 200);
  try {
    const device = aDevice(service);
    const started = Date.now();
    const outcome = await sender.send(
      { endpoint: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/push/1`, ...device.keys },
      message,
    );
    expect(outcome).toEqual({ kind: 'failed', error: 'No answer in 0.2 s' });
    expect(Date.now() - started).toBeLessThan(2_000);
  } finally {
    sender.close();
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  }
});

it('tells a push taken from a subscription gone and from a failure, keeping the start of the failure’s words', async () => {
  const sender = createPushSender(vapid, true);
  try {
    const device = aDevice(service);
    const target = { endpoint: device.endpoint, ...device.keys };
    expect(await sender.send(target, message)).toEqual({ kind: 'sent' });
    expect(device.pushes(service)).toEqual([message.payload]);
    service.answer(410);
    expect(await sender.send(target, message)).toEqual({ kind: 'gone', status: 410 });
    service.answer(429);
    expect(await sender.send(target, message)).toEqual({ kind: 'failed', error: '429' });
    await service.stop();
    expect(await sender.send(target, message)).toMatchObject({
      kind: 'failed',
      error: expect.stringMatching(/ECONNREFUSED|socket hang up/),
    });
  } finally {
    sender.close();
    await service.start();
  }
});

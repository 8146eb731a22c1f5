import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A push as the test's push service received it. */
export interface ReceivedPush {
  /** The endpoint's path: which device it is for. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** What the service answered. */
  status: number;
}

/** A push service of the test's own, on 127.0.0.1 (PUSH_ALLOW_PRIVATE_ENDPOINTS lets the server post to it). */
export interface TestPushService {
  /** Its origin, `http://127.0.0.1:<port>`: a VAPID token's audience. */
  origin: string;
  /** Every request it answered, the failed ones included, in order. */
  received: ReceivedPush[];
  /** The pushes it took (answered 201). */
  delivered(): ReceivedPush[];
  /** What it answers from now on: 201 (taken), or a failure such as 503, or 404 and 410 (the subscription is gone). */
  answer(status: number): void;
  /** Stops listening: connections to it are refused until `start`. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

export async function startPushService(): Promise<TestPushService> {
  const received: ReceivedPush[] = [];
  let status = 201;
  let port = 0;
  let server: http.Server | null = null;
  const listen = async () => {
    server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks), status });
        response.writeHead(status, status === 201 ? { location: `/message/${received.length}` } : {}).end();
      });
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  };
  await listen();
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    delivered: () => received.filter((push) => push.status === 201),
    answer(next) {
      status = next;
    },
    async stop() {
      const stopping = server;
      server = null;
      if (!stopping) return;
      // Connections the server keeps open to it go too, so that the next push must connect.
      stopping.closeAllConnections();
      await new Promise<void>((resolve) => stopping.close(() => resolve()));
    },
    start: async () => {
      if (!server) await listen();
    },
  };
}

/**
 * A browser's push subscription, made as a browser makes it (RFC 8291 §2): a P-256 key pair and a
 * 16-byte authentication secret of its own, and an endpoint at the push service.
 */
export interface TestDevice {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** The pushes the service took for this device, each decrypted. */
  pushes(service: TestPushService): unknown[];
  /** Decrypts a push's body as the browser would. */
  decrypt(body: Buffer): string;
}

let devices = 0;

/** A new device, or with `endpoint` the same device again with new keys, as when its browser renews a subscription. */
export function aDevice(service: TestPushService, endpoint?: string): TestDevice {
  devices += 1;
  const keyPair = createECDH('prime256v1');
  keyPair.generateKeys();
  const authSecret = randomBytes(16);
  const path = endpoint ? new URL(endpoint).pathname : `/push/device-${devices}-${randomBytes(4).toString('hex')}`;
  const device: TestDevice = {
    endpoint: `${service.origin}${path}`,
    keys: { p256dh: keyPair.getPublicKey('base64url'), auth: authSecret.toString('base64url') },
    pushes: (from) =>
      from
        .delivered()
        .filter((push) => push.path === path)
        .map((push) => JSON.parse(device.decrypt(push.body))),
    decrypt: (body) => decryptAes128gcm(body, keyPair, authSecret),
  };
  return device;
}

const hkdf = (ikm: Buffer, salt: Buffer, info: Buffer, length: number) =>
  Buffer.from(hkdfSync('sha256', ikm, salt, info, length));

/**
 * RFC 8291's decryption of a push message, written from the RFC (and RFC 8188's `aes128gcm`
 * records) rather than taken from the library the server encrypts with: the header carries the
 * salt, the record size and the server's one-time public key; the keys come from the ECDH secret
 * and the device's auth secret; each record ends in a delimiter (2 for the last) and zero padding.
 */
export function decryptAes128gcm(body: Buffer, device: ECDH, authSecret: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const keyIdLength = body[20];
  const serverPublicKey = body.subarray(21, 21 + keyIdLength);
  if (keyIdLength !== 65) throw new Error(`The key id is ${keyIdLength} bytes, not a P-256 public key's 65`);
  const ecdhSecret = device.computeSecret(serverPublicKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), device.getPublicKey(), serverPublicKey]);
  const ikm = hkdf(ecdhSecret, authSecret, keyInfo, 32);
  const contentKey = hkdf(ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const baseNonce = hkdf(ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12);
  const records = body.subarray(21 + keyIdLength);
  const plain: Buffer[] = [];
  for (let start = 0, sequence = 0; start < records.length; start += recordSize, sequence += 1) {
    const record = records.subarray(start, start + recordSize);
    const nonce = Buffer.from(baseNonce);
    // The record's sequence number, XORed into the nonce's last bytes (records are far fewer than 2³²).
    nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ sequence) >>> 0, 8);
    const decipher = createDecipheriv('aes-128-gcm', contentKey, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end -= 1;
    const last = start + recordSize >= records.length;
    if (padded[end] !== (last ? 2 : 1))
      throw new Error(`Record ${sequence} ends in delimiter ${padded[end]}, not ${last ? 2 : 1}`);
    plain.push(padded.subarray(0, end));
  }
  return Buffer.concat(plain).toString('utf8');
}

/** The claims of a push's VAPID token (RFC 8292), once its ES256 signature is verified with the key it names. */
export interface VapidClaims {
  /** The public key of `k=`, base64url. */
  key: string;
  aud: string;
  sub: string;
  exp: number;
}

/**
 * Reads `Authorization: vapid t=<JWT>, k=<key>` and verifies the JWT's ES256 signature with `k`; throws if it does not
 * hold.
 */
export function verifiedVapid(authorization: string | undefined): VapidClaims {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`Not a VAPID authorization: ${authorization}`);
  const [, token, key] = match;
  const [header, payload, signature] = token.split('.');
  const head = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: string };
  if (head.alg !== 'ES256') throw new Error(`The token is signed with ${head.alg}, not ES256`);
  const point = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  // JWS writes an ES256 signature as r and s, 32 bytes each (IEEE P1363), not DER.
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) throw new Error('The VAPID token’s signature does not verify with its key');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Omit<VapidClaims, 'key'>;
  return { key, ...claims };
}

import http from 'node:http';
import https from 'node:https';
import webPush from 'web-push';
import type { PushPayload } from '@pollscope/contract';
import type { VapidKeys } from '../../config.js';
import { endpointRefusal, publicAddressesOnly } from './endpoint.js';

/** What a push is sent to: a subscription's endpoint and the keys its payload is encrypted for. */
export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushMessage {
  payload: PushPayload;
  /** Seconds the push service keeps the message for a device that is offline (the `TTL` header). */
  ttlSeconds: number;
  urgency: 'very-low' | 'low' | 'normal' | 'high';
  /**
   * A message with the same topic that the push service still holds for the device is replaced by this one (RFC 8030).
   */
  topic: string;
}

/**
 * What the push service answered: taken, the subscription gone for good (404, 410), or a failure to try again later.
 */
export type PushOutcome = { kind: 'sent' } | { kind: 'gone'; status: number } | { kind: 'failed'; error: string };

export interface PushSender {
  send(target: PushTarget, message: PushMessage): Promise<PushOutcome>;
  /** Closes the connections kept open to push services. */
  close(): void;
}

/**
 * A push service answers in milliseconds; one that has not answered in this long, from the first lookup to the last
 * byte, is tried again later.
 */
const TIMEOUT_MS = 10_000;

/**
 * Posts pushes as RFC 8030 says: the payload encrypted for the device (RFC 8291, `aes128gcm`) and
 * signed for the push service with the VAPID key (RFC 8292), both by the `web-push` library; the
 * request is made here, so that the address it connects to is checked (`publicAddressesOnly`)
 * and, for tests with a push service of their own, `http://` works too. The endpoint is checked
 * again at each send: it may have been subscribed while PUSH_ALLOW_PRIVATE_ENDPOINTS was set.
 */
export function createPushSender(
  vapid: VapidKeys & { subject: string },
  allowPrivate: boolean,
  timeoutMs = TIMEOUT_MS,
): PushSender {
  // Connections to each push service are kept open between pushes: nearly every push goes to one of a few services.
  const agents = { 'https:': new https.Agent({ keepAlive: true }), 'http:': new http.Agent({ keepAlive: true }) };
  return {
    async send(target, message) {
      const refusal = endpointRefusal(target.endpoint, allowPrivate);
      if (refusal) return { kind: 'failed', error: `${refusal}: ${target.endpoint}` };
      let details: ReturnType<typeof webPush.generateRequestDetails>;
      try {
        details = webPush.generateRequestDetails(
          { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
          JSON.stringify(message.payload),
          {
            vapidDetails: vapid,
            TTL: message.ttlSeconds,
            urgency: message.urgency,
            topic: message.topic,
            contentEncoding: 'aes128gcm',
          },
        );
      } catch (error) {
        return { kind: 'failed', error: `Could not encrypt for the subscription: ${(error as Error).message}` };
      }
      const url = new URL(details.endpoint);
      const protocol = url.protocol === 'http:' ? 'http:' : 'https:';
      return new Promise<PushOutcome>((resolve) => {
        const settle = (outcome: PushOutcome) => {
          clearTimeout(deadline);
          resolve(outcome);
        };
        const request = (protocol === 'http:' ? http : https).request(
          url,
          {
            method: details.method,
            headers: details.headers as http.OutgoingHttpHeaders,
            agent: agents[protocol],
            ...(allowPrivate ? {} : { lookup: publicAddressesOnly }),
          },
          (response) => {
            let text = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => {
              // Only the start of an error's explanation is kept for the log.
              if (text.length < 500) text += chunk;
            });
            response.on('end', () => {
              const status = response.statusCode ?? 0;
              if (status >= 200 && status < 300) settle({ kind: 'sent' });
              else if (status === 404 || status === 410) settle({ kind: 'gone', status });
              else settle({ kind: 'failed', error: `${status} ${text.slice(0, 500).trim()}`.trim() });
            });
            response.on('error', (error) => settle({ kind: 'failed', error: error.message }));
          },
        );
        // The whole exchange, not each silence: a service sending a byte at a time still ends it.
        const deadline = setTimeout(() => request.destroy(new Error(`No answer in ${timeoutMs / 1000} s`)), timeoutMs);
        request.on('error', (error) => settle({ kind: 'failed', error: error.message }));
        request.end(details.body);
      });
    },
    close() {
      agents['https:'].destroy();
      agents['http:'].destroy();
    },
  };
}

import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';

/** A committed change that what an instance keeps in memory may hold an older copy of. */
export type Change =
  /** A vote or a like on the question. */
  | { kind: 'question'; id: number }
  /** The user asked a question or changed their name. */
  | { kind: 'author'; id: number };

/** Heard from another instance, or `missed`: changes may have gone unheard, forget every copy. */
export type RemoteChange = Change | { kind: 'missed' };

declare module 'fastify' {
  interface FastifyInstance {
    changes: ChangeBus;
  }
}

export interface ChangeBus {
  /** Tells the other instances; this one applies its own changes where it makes them. */
  publish(change: Change): void;
  /** Calls `listener` with each change another instance makes. */
  onRemote(listener: (change: RemoteChange) => void): void;
}

const CODES = { question: 'q', author: 'a' } as const;

/**
 * Carries changes between the instances that share Redis, on one channel every instance hears;
 * an instance alone has no one to tell. Publishing never fails a request: the change is
 * committed, and an instance that cannot hear of it is told `missed` once Redis is back.
 */
export function registerChanges(app: FastifyInstance): void {
  const listeners: ((change: RemoteChange) => void)[] = [];
  const hear = (change: RemoteChange) => {
    for (const listener of listeners) listener(change);
  };
  const { redis } = app;
  if (!redis) {
    app.decorate('changes', { publish: () => {}, onRemote: (listener) => void listeners.push(listener) });
    return;
  }

  const channel = `${app.config.redisPrefix}changes`;
  const instance = randomUUID();
  // A connection that subscribes can do nothing else, so it is one of its own.
  const subscriber = redis.duplicate();
  subscriber.on('error', (error) => app.log.warn({ err: error }, 'changes: redis unreachable'));
  let readyBefore = false;
  subscriber.on('ready', () => {
    if (readyBefore) hear({ kind: 'missed' });
    readyBefore = true;
  });
  subscriber.on('message', (_channel: string, message: string) => {
    const [from, code, id] = message.split(' ');
    if (from === instance) return;
    const kind = code === CODES.question ? 'question' : code === CODES.author ? 'author' : null;
    if (kind && Number.isInteger(Number(id))) hear({ kind, id: Number(id) });
  });
  subscriber.subscribe(channel).catch((error) => app.log.warn({ err: error }, 'changes: subscribing failed'));
  app.addHook('onClose', async () => {
    await subscriber.quit().catch(() => subscriber.disconnect());
  });

  app.decorate('changes', {
    publish(change) {
      redis.publish(channel, `${instance} ${CODES[change.kind]} ${change.id}`).catch((error) => {
        app.log.warn({ err: error, change }, 'changes: publishing failed');
      });
    },
    onRemote: (listener) => void listeners.push(listener),
  });
}

import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/** A vote or a like by `actorId` was committed on a question. */
export interface QuestionChange {
  questionId: number;
  actorId: number;
}

export type Deliver = (change: QuestionChange) => void;

/** Carries changes from the instance where they happen to the instances whose viewers watch the question. */
export interface LiveBus {
  publish(change: QuestionChange): Promise<void>;
  /** Starts delivering the question's changes to this instance. */
  follow(questionId: number): Promise<void>;
  unfollow(questionId: number): Promise<void>;
  close(): Promise<void>;
}

/** An instance alone: its changes go straight to its own viewers. */
export function localBus(deliver: Deliver): LiveBus {
  return {
    publish: async (change) => deliver(change),
    follow: async () => {},
    unfollow: async () => {},
    close: async () => {},
  };
}

/**
 * Instances sharing Redis: a change is published on its question's channel, and each instance
 * subscribes only to the channels of the questions its own viewers watch, so an instance hears
 * nothing of the questions nobody watches there. After Redis comes back from an outage, every
 * channel is subscribed again and `missedSome` is called, since changes made meanwhile were lost.
 */
export function redisBus(redis: Redis, prefix: string, deliver: Deliver, missedSome: () => void, log: FastifyBaseLogger): LiveBus {
  const channelPrefix = `${prefix}live:question:`;
  const channelOf = (questionId: number) => `${channelPrefix}${questionId}`;
  const followed = new Set<number>();
  // A connection that subscribes can do nothing else, so it is one of its own.
  const subscriber = redis.duplicate({ autoResubscribe: false });
  subscriber.on('error', (error) => log.warn({ err: error }, 'live results: redis unreachable'));

  let readyBefore = false;
  subscriber.on('ready', () => {
    if (!readyBefore) {
      readyBefore = true;
      return;
    }
    if (followed.size > 0) subscriber.subscribe(...[...followed].map(channelOf)).catch((error) => log.warn({ err: error }, 'live results: subscribing again failed'));
    missedSome();
  });
  subscriber.on('message', (channel: string, message: string) => {
    const questionId = Number(channel.slice(channelPrefix.length));
    const actorId = Number(message);
    if (Number.isInteger(questionId) && Number.isInteger(actorId)) deliver({ questionId, actorId });
  });

  return {
    async publish({ questionId, actorId }) {
      await redis.publish(channelOf(questionId), String(actorId));
    },
    async follow(questionId) {
      followed.add(questionId);
      await subscriber.subscribe(channelOf(questionId));
    },
    async unfollow(questionId) {
      followed.delete(questionId);
      await subscriber.unsubscribe(channelOf(questionId));
    },
    async close() {
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}

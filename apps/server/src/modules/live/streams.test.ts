import {
  api,
  connectedSchema,
  likedSchema,
  LIVE_RESULT_EVENT,
  liveResultSchema,
  UNREAD_EVENT,
  unreadSchema,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEventStream, type EventStream, type StreamBlock } from '../../test/event-stream.js';
import { ask, createTestApp, signUp, type TestContext } from '../../test/helper.js';

let ctx: TestContext;
let baseUrl: string;
const streams: EventStream[] = [];
beforeAll(async () => {
  ctx = await createTestApp();
  baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await ctx.close();
});

async function open(path: string, token: string): Promise<EventStream> {
  const stream = await openEventStream(`${baseUrl}${path}`, token);
  expect(stream.status).toBe(200);
  streams.push(stream);
  return stream;
}

/** The streams the instance has registered now, of both kinds. */
function registered(): number {
  return ctx.app.live.streams + ctx.app.unread.open;
}

describe('HEAD on a live stream', () => {
  it('answers the stream’s headers and opens nothing, 2,000 times over', async () => {
    const person = await signUp(ctx);
    const question = await ask(person);
    const paths = [api.live(question), api.notificationsLive];
    const head = async (path: string) => {
      const response = await fetch(`${baseUrl}${path}`, {
        method: 'HEAD',
        headers: { accept: 'text/event-stream', authorization: `Token ${person.token}` },
      });
      return { status: response.status, type: response.headers.get('content-type') };
    };
    for (const path of paths)
      expect(await head(path)).toEqual({ status: 200, type: 'text/event-stream; charset=utf-8' });

    let sent = 0;
    const statuses = new Set<number>();
    const worker = async () => {
      while (sent < 2_000) statuses.add((await head(paths[sent++ % 2])).status);
    };
    await Promise.all(Array.from({ length: 50 }, worker));
    expect(statuses).toEqual(new Set([200]));
    expect(registered()).toBe(0);
    const metrics = (await ctx.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain('\npollscope_live_result_streams 0\n');
    expect(metrics).toContain('\npollscope_live_unread_streams 0\n');
  });
});

describe('live streams of one person', () => {
  it('stay at LIVE_STREAMS_PER_PERSON (20) open: each one more ends their oldest', async () => {
    const person = await signUp(ctx);
    const other = await signUp(ctx);
    const liker = await signUp(ctx);
    const question = await ask(person);
    const othersStream = await open(api.notificationsLive, other.token);
    const before = registered();

    const unread: EventStream[] = [];
    for (let index = 0; index < 20; index += 1) unread.push(await open(api.notificationsLive, person.token));
    expect(registered() - before).toBe(20);

    // The 21st ends the first at once: it is forgotten before the 21st's answer starts.
    const results = [await open(api.live(question), person.token)];
    expect(registered() - before).toBe(20);
    await unread[0].ended;
    for (let index = 1; index < 10; index += 1) results.push(await open(api.live(question), person.token));
    await Promise.all(unread.slice(0, 10).map((stream) => stream.ended));
    expect({ results: ctx.app.live.streams, unread: ctx.app.unread.open - before }).toEqual({
      results: 10,
      unread: 10,
    });

    // The 20 newest are still served, and so is the other person's stream: a like of the
    // question and a follow each send a new state to every stream still open.
    await liker.api.post(api.like(question), likedSchema);
    await liker.api.post(api.follow(other.id), connectedSchema);
    const likeShown = (block: StreamBlock) =>
      block.event === LIVE_RESULT_EVENT && liveResultSchema.parse(JSON.parse(block.data!)).like_count === 1;
    const oneUnread = (block: StreamBlock) =>
      block.event === UNREAD_EVENT && unreadSchema.parse(JSON.parse(block.data!)).unread === 1;
    await Promise.all([
      ...results.map((stream) => stream.next(likeShown, 'the like')),
      ...[...unread.slice(10), othersStream].map((stream) => stream.next(oneUnread, 'one unread')),
    ]);
    expect(unread.slice(0, 10).flatMap((stream) => stream.received.filter(oneUnread))).toEqual([]);
  });
});

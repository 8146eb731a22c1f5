import {
  answerBodySchema,
  api,
  blockedSchema,
  likedSchema,
  LIVE_RESULT_EVENT,
  type LiveResult,
  liveResultSchema,
  questionSchema,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEventStream, type EventStream } from '../../test/event-stream.js';
import { ask, client, createTestApp, signUp, type TestContext } from '../../test/helper.js';

let ctx: TestContext;
let baseUrl: string;
const streams: EventStream[] = [];
beforeAll(async () => {
  ctx = await createTestApp({ liveHeartbeatSeconds: 1 });
  baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await ctx.close();
});

async function watch(questionId: number, token?: string): Promise<EventStream> {
  const stream = await openEventStream(`${baseUrl}${api.live(questionId)}`, token);
  streams.push(stream);
  return stream;
}

/** The next result event that matches, checked against the contract. */
async function nextResult(
  stream: EventStream,
  matches: (result: LiveResult) => boolean = () => true,
): Promise<LiveResult> {
  const block = await stream.next(
    (block) => block.event === LIVE_RESULT_EVENT && matches(liveResultSchema.parse(JSON.parse(block.data!))),
    'matching result',
  );
  return liveResultSchema.parse(JSON.parse(block.data!));
}

describe('live results', () => {
  it('show the author each vote and like as it lands, without asking again', async () => {
    const author = await signUp(ctx);
    const voter = await signUp(ctx);
    const question = await ask(author, { choices: ['Tea', 'Coffee'] });
    const stream = await watch(question, author.token);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    expect(await stream.next()).toEqual({ retry: 3000 });
    expect(await nextResult(stream)).toEqual({
      id: question,
      result: {
        count: 0,
        answers: [
          { key: 1, percent: 0 },
          { key: 2, percent: 0 },
        ],
      },
      like_count: 0,
      vote_count: 0,
    });

    await voter.api.post(api.answer(question), answerBodySchema, { choice: 2 }, questionSchema);
    expect(await nextResult(stream)).toEqual({
      id: question,
      result: {
        count: 1,
        answers: [
          { key: 1, percent: 0 },
          { key: 2, percent: 100 },
        ],
      },
      like_count: 0,
      vote_count: 1,
    });
    await voter.api.post(api.like(question), likedSchema);
    expect(await nextResult(stream)).toMatchObject({ result: { count: 1 }, like_count: 1 });
    await voter.api.post(api.unlike(question), likedSchema);
    expect(await nextResult(stream)).toMatchObject({ like_count: 0 });
  });

  it('show a viewer no result until they answer, and then the result', async () => {
    const author = await signUp(ctx);
    const viewer = await signUp(ctx);
    const voter = await signUp(ctx);
    const question = await ask(author, { type: 'RS', question: 'How sunny is it?', choices: [] });
    const stream = await watch(question, viewer.token);
    expect(await nextResult(stream)).toEqual({ id: question, result: null, like_count: 0, vote_count: 0 });

    await voter.api.post(api.answer(question), answerBodySchema, { choice: 4 }, questionSchema);
    await voter.api.post(api.like(question), likedSchema);
    expect(await nextResult(stream, (result) => result.like_count === 1)).toEqual({
      id: question,
      result: null,
      like_count: 1,
      vote_count: 1,
    });

    await viewer.api.post(api.answer(question), answerBodySchema, { choice: 8 }, questionSchema);
    const seen = await nextResult(stream, (result) => result.result !== null);
    expect(seen.result).toMatchObject({ count: 2, average: 6 });
    expect(
      stream.received.filter(
        (block) =>
          block.event === LIVE_RESULT_EVENT && liveResultSchema.parse(JSON.parse(block.data!)).result?.count === 1,
      ),
    ).toEqual([]);
  });

  it('end on the last state after a burst of votes from many people at once', async () => {
    const author = await signUp(ctx);
    const voters = await Promise.all(Array.from({ length: 20 }, () => signUp(ctx)));
    const question = await ask(author, { choices: ['A', 'B', 'C', 'D'] });
    const stream = await watch(question, author.token);
    await nextResult(stream);

    const statuses = await Promise.all(
      voters.map((voter, index) =>
        voter.api.raw('POST', api.answer(question), { choice: (index % 4) + 1 }).then((reply) => reply.status),
      ),
    );
    expect(statuses).toEqual(voters.map(() => 200));
    const last = await nextResult(stream, (result) => result.result?.count === 20);
    expect(last.result!.answers).toEqual([1, 2, 3, 4].map((key) => ({ key, percent: 25 })));
    const counts = stream.received
      .filter((block) => block.event === LIVE_RESULT_EVENT)
      .map((block) => liveResultSchema.parse(JSON.parse(block.data!)).result!.count);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
  });

  it('send a comment while nothing happens, so that proxies keep the stream open', async () => {
    const author = await signUp(ctx);
    const stream = await watch(await ask(author), author.token);
    expect(await stream.next((block) => block.comment !== undefined, 'comment')).toEqual({ comment: 'still here' });
  });

  it('give the state once as JSON to a call that does not ask for a stream', async () => {
    const author = await signUp(ctx);
    const question = await ask(author);
    expect(await author.api.get(api.live(question), liveResultSchema)).toEqual({
      id: question,
      result: {
        count: 0,
        answers: [
          { key: 1, percent: 0 },
          { key: 2, percent: 0 },
        ],
      },
      like_count: 0,
      vote_count: 0,
    });
  });

  it('show a visitor without a token the vote count as votes land, never the result', async () => {
    const author = await signUp(ctx);
    const voter = await signUp(ctx);
    const question = await ask(author);
    const stream = await watch(question);
    expect(await nextResult(stream)).toEqual({ id: question, result: null, like_count: 0, vote_count: 0 });
    await voter.api.post(api.answer(question), answerBodySchema, { choice: 2 }, questionSchema);
    expect(await nextResult(stream)).toEqual({ id: question, result: null, like_count: 0, vote_count: 1 });
  });

  it('are refused to a user the author blocked and for a missing question, with or without a token', async () => {
    const author = await signUp(ctx);
    const blocked = await signUp(ctx);
    const question = await ask(author);
    await author.api.post(api.ban(blocked.id), blockedSchema);
    const cases: [string | undefined, number, number][] = [
      [undefined, 999_999, 404],
      [blocked.token, question, 403],
      [author.token, 999_999, 404],
    ];
    for (const [token, id, status] of cases) {
      const stream = await watch(id, token);
      expect(stream.status).toBe(status);
      expect(stream.headers.get('content-type')).toContain('application/json');
    }
    expect((await client(ctx.app).raw('GET', api.live(999_999))).status).toBe(404);
  });

  it('end when the server stops, so that clients reconnect to another instance', async () => {
    const own = await createTestApp();
    const ownUrl = await own.app.listen({ port: 0, host: '127.0.0.1' });
    const author = await signUp(own);
    const stream = await openEventStream(`${ownUrl}${api.live(await ask(author))}`, author.token);
    await stream.next((block) => block.event === LIVE_RESULT_EVENT);
    await own.close();
    await stream.ended;
    expect(stream.received[0]).toEqual({ retry: 3000 });
  });
});

import {
  answerBodySchema,
  api,
  blockedSchema,
  connectedSchema,
  likedSchema,
  passedSchema,
  questionSchema,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext } from '../test/helper.js';
import { ViewerStates } from './viewer-states.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const versionOf = async (userId: number) =>
  (await ctx.database.db.selectFrom('users').select('state_version').where('id', '=', userId).executeTakeFirstOrThrow())
    .state_version;

describe('viewer states', () => {
  it('hold what a person did, and are read again once their version moved', async () => {
    const [viewer, author] = [await signUp(ctx), await signUp(ctx)];
    const [question, hidden] = [await ask(author), await ask(author)];
    const states = new ViewerStates(100_000, ctx.database.dialect);
    const before = await states.get(ctx.database.db, viewer.id, await versionOf(viewer.id));
    expect(before.votes.size).toBe(0);

    await viewer.api.post(api.answer(question), answerBodySchema, { choice: 2 }, questionSchema);
    await viewer.api.post(api.like(question), likedSchema);
    await viewer.api.post(api.follow(author.id), connectedSchema);
    await viewer.api.post(api.pass(hidden), passedSchema);
    // Kept while the version stands, whatever happened meanwhile.
    expect(await states.get(ctx.database.db, viewer.id, before.version)).toBe(before);

    const after = await states.get(ctx.database.db, viewer.id, await versionOf(viewer.id));
    expect(after.version).toBe(before.version + 4);
    expect(after.voter).toMatchObject({
      id: viewer.id,
      gender: expect.any(String),
      birth_year: expect.any(Number),
      country_id: expect.any(Number),
    });
    expect(after.votes.get(question)).toMatchObject({ choice: 2, seq: 1 });
    expect([...after.likes]).toEqual([question]);
    expect(after.followees).toEqual([author.id]);
    expect([...after.passes]).toEqual([hidden]);
  });

  it('take a change made here when they are its previous version, and drop it otherwise', async () => {
    const viewer = await signUp(ctx);
    const states = new ViewerStates(100_000, ctx.database.dialect);
    const version = await versionOf(viewer.id);
    const kept = await states.get(ctx.database.db, viewer.id, version);
    states.changed(viewer.id, version + 1, (state) => state.passes.add(42));
    expect(await states.get(ctx.database.db, viewer.id, version + 1)).toBe(kept);
    expect([...kept.passes]).toEqual([42]);

    // A change from elsewhere came in between: the kept state is not the one just before.
    states.changed(viewer.id, version + 3, (state) => state.passes.add(43));
    const read = await states.get(ctx.database.db, viewer.id, version + 3);
    expect(read).not.toBe(kept);
    expect(read.passes.has(43)).toBe(false);
  });

  it('know who blocked the viewer and whom the viewer blocked', async () => {
    const [viewer, blocker, blocked] = [await signUp(ctx), await signUp(ctx), await signUp(ctx)];
    await blocker.api.post(api.ban(viewer.id), blockedSchema);
    await viewer.api.post(api.ban(blocked.id), blockedSchema);
    const state = await new ViewerStates(100_000, ctx.database.dialect).get(
      ctx.database.db,
      viewer.id,
      await versionOf(viewer.id),
    );
    expect([...state.blocked].sort()).toEqual([blocker.id, blocked.id].sort());
  });

  it('keep as many people as their memory budget holds, the least recently served dropped first', async () => {
    const people = [await signUp(ctx), await signUp(ctx), await signUp(ctx)];
    // Room for two people who did nothing yet, not three.
    const states = new ViewerStates(2_000, ctx.database.dialect);
    const read = async (index: number) =>
      states.get(ctx.database.db, people[index].id, await versionOf(people[index].id));
    const [first, second] = [await read(0), await read(1)];
    expect(await read(0)).toBe(first);
    await read(2);
    expect(await read(0)).toBe(first);
    expect(await read(1)).not.toBe(second);
  });
});

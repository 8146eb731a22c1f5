import {
  answerBodySchema,
  api,
  blockedSchema,
  connectedSchema,
  peopleSchema,
  questionSchema,
  suggestionsSchema,
  type Suggestion,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, updateAccount, type TestContext, type TestUser } from '../../test/helper.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const people = async (user: TestUser, q: string) => (await user.api.get(api.people(q), peopleSchema.strict())).people;
const suggestions = async (user: TestUser) => (await user.api.get(api.suggestions, suggestionsSchema.strict())).people;
const reasonFor = (list: Suggestion[], person: TestUser) =>
  list.find((suggestion) => suggestion.id === person.id)?.reason;

describe('finding people by first name', () => {
  it('finds the start of a first name in any case and accent, the exact name first, then those who ask most', async () => {
    const viewer = await signUp(ctx, { firstName: 'Viewer' });
    const marie = await signUp(ctx, { firstName: 'Marië' });
    const maria = await signUp(ctx, { firstName: 'María José' });
    const mar = await signUp(ctx, { firstName: 'Mar' });
    const marcel = await signUp(ctx, { firstName: 'Marcel' });
    await signUp(ctx, { firstName: 'Omar' });
    await ask(maria);
    await ask(maria);
    await ask(marie);
    await viewer.api.post(api.follow(marie.id), connectedSchema);

    const found = await people(viewer, 'MAR');
    expect(found).toEqual([
      { id: mar.id, name: 'Mar', asked: 0, connected: false },
      { id: maria.id, name: 'María José', asked: 2, connected: false },
      { id: marie.id, name: 'Marië', asked: 1, connected: true },
      { id: marcel.id, name: 'Marcel', asked: 0, connected: false },
    ]);
    expect((await people(viewer, 'marie')).map((person) => person.id)).toEqual([marie.id]);
    expect((await people(viewer, 'maria jo')).map((person) => person.id)).toEqual([maria.id]);
    expect(await people(viewer, 'marx')).toEqual([]);
    expect(await people(viewer, '!!')).toEqual([]);
  });

  it('shows at most 20, never the viewer, nor anyone blocked either way', async () => {
    const viewer = await signUp(ctx, { firstName: 'Zed' });
    const blocker = await signUp(ctx, { firstName: 'Zed' });
    const blocked = await signUp(ctx, { firstName: 'Zed' });
    const others: number[] = [];
    for (let index = 0; index < 21; index += 1) others.push((await signUp(ctx, { firstName: `Zed ${index}` })).id);
    await blocker.api.post(api.ban(viewer.id), blockedSchema);
    await viewer.api.post(api.ban(blocked.id), blockedSchema);
    const found = (await people(viewer, 'zed')).map((person) => person.id);
    expect(found).toHaveLength(20);
    expect(found).not.toContain(viewer.id);
    expect(found).not.toContain(blocker.id);
    expect(found).not.toContain(blocked.id);
    expect(others).toEqual(expect.arrayContaining(found));
  });

  it('finds a person by their new name once they change it, and refuses a missing or blank query', async () => {
    const viewer = await signUp(ctx);
    const person = await signUp(ctx, { firstName: 'Oldname' });
    await updateAccount(person, { firstName: 'Ígnatius' });
    expect((await people(viewer, 'igna')).map((found) => found.id)).toEqual([person.id]);
    expect(await people(viewer, 'oldname')).toEqual([]);
    for (const url of ['/api/auth/people/', api.people(' ')]) {
      const reply = await viewer.api.raw('GET', url);
      expect(reply.status, url).toBe(400);
      expect(reply.error().errors, url).toHaveProperty('q');
    }
  });
});

describe('people to follow', () => {
  it('suggests people the viewer’s followees follow, the most followed first, saying by how many', async () => {
    const viewer = await signUp(ctx);
    const [first, second, third] = [await signUp(ctx), await signUp(ctx), await signUp(ctx)];
    const popular = await signUp(ctx, { firstName: 'Popular' });
    const lessPopular = await signUp(ctx, { firstName: 'Lesspopular' });
    const silent = await signUp(ctx, { firstName: 'Silent' });
    await ask(popular);
    await ask(lessPopular);
    for (const followee of [first, second, third]) await viewer.api.post(api.follow(followee.id), connectedSchema);
    for (const followee of [first, second, third]) await followee.api.post(api.follow(popular.id), connectedSchema);
    await first.api.post(api.follow(lessPopular.id), connectedSchema);
    // Someone who asks nothing would bring nothing to the feed.
    for (const followee of [first, second, third]) await followee.api.post(api.follow(silent.id), connectedSchema);

    const list = await suggestions(viewer);
    expect(list.slice(0, 2)).toEqual([
      { id: popular.id, name: 'Popular', asked: 1, reason: 'Followed by 3 people you follow' },
      { id: lessPopular.id, name: 'Lesspopular', asked: 1, reason: 'Followed by 1 person you follow' },
    ]);
    expect(reasonFor(list, silent)).toBeUndefined();
  });

  it('suggests the authors of questions the viewer answered, and askers in their favourite category', async () => {
    const viewer = await signUp(ctx);
    const author = await signUp(ctx);
    const scientist = await signUp(ctx);
    for (const id of [await ask(author), await ask(author)])
      await viewer.api.post(api.answer(id), answerBodySchema, { choice: 1 }, questionSchema);
    const lone = await signUp(ctx);
    await viewer.api.post(api.answer(await ask(lone)), answerBodySchema, { choice: 2 }, questionSchema);
    await ask(scientist, { category: 5 });

    const before = await suggestions(viewer);
    expect(reasonFor(before, author)).toBe('You answered 2 of their questions');
    expect(reasonFor(before, lone)).toBe('You answered one of their questions');
    expect(reasonFor(before, scientist)).toBeUndefined();

    await updateAccount(viewer, { favoriteCategory: 5 });
    expect(reasonFor(await suggestions(viewer), scientist)).toBe('Asks about Science');
  });

  it('gives someone who follows nobody and answered nothing the askers of popular questions', async () => {
    const asker = await signUp(ctx, { firstName: 'Asker' });
    const question = await ask(asker);
    await (await signUp(ctx)).api.post(api.answer(question), answerBodySchema, { choice: 1 }, questionSchema);
    const newcomer = await signUp(ctx);
    expect(reasonFor(await suggestions(newcomer), asker)).toBe('Asks popular questions');
  });

  it('never suggests the viewer, someone they follow, anyone blocked either way, or more than 10', async () => {
    const viewer = await signUp(ctx);
    const followed = await signUp(ctx);
    const blocker = await signUp(ctx);
    const blocked = await signUp(ctx);
    await ask(viewer);
    for (const person of [followed, blocker, blocked]) await ask(person);
    for (let index = 0; index < 12; index += 1) {
      const asker = await signUp(ctx);
      await viewer.api.post(api.answer(await ask(asker)), answerBodySchema, { choice: 1 }, questionSchema);
    }
    for (const person of [followed, blocker, blocked])
      await viewer.api.post(api.answer(await ask(person)), answerBodySchema, { choice: 1 }, questionSchema);
    await viewer.api.post(api.follow(followed.id), connectedSchema);
    await blocker.api.post(api.ban(viewer.id), blockedSchema);
    await viewer.api.post(api.ban(blocked.id), blockedSchema);

    const ids = (await suggestions(viewer)).map((suggestion) => suggestion.id);
    expect(ids).toHaveLength(10);
    for (const person of [viewer, followed, blocker, blocked]) expect(ids).not.toContain(person.id);
  });
});

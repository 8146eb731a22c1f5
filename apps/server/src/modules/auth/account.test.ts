import {
  accountSchema,
  accountUpdateBodySchema,
  answerBodySchema,
  api,
  questionSchema,
  userStatsSchema,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext } from '../../test/helper.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const update = {
  firstName: 'Grace',
  birthDate: '1985-12-09',
  livingIn: 250,
  favoriteCategory: 3,
  favoriteTopic: 'compilers',
};

describe('personal info', () => {
  it('shows what the person registered with', async () => {
    const user = await signUp(ctx, { firstName: 'Ada', birthDate: '1990-06-15', gender: 'F', livingIn: 826 });
    const reply = await user.api.raw('GET', api.account);
    expect(reply.status).toBe(200);
    expect(reply.parse(accountSchema.strict())).toEqual({
      id: user.id,
      role: 'member',
      first_name: 'Ada',
      birthdate: '1990-06-15',
      country: 826,
      favorite_category: null,
      favorite_topic: null,
      gender: 'F',
    });
  });

  it('saves an update and answers with the saved info, which the stats and questions show too', async () => {
    const user = await signUp(ctx, { gender: 'M' });
    const reply = await user.api.raw('POST', api.account, {
      ...update,
      firstName: '  Grace  ',
      favoriteTopic: ' compilers ',
    });
    expect(reply.status).toBe(200);
    const saved = {
      id: user.id,
      role: 'member',
      first_name: 'Grace',
      birthdate: '1985-12-09',
      country: 250,
      favorite_category: 3,
      favorite_topic: 'compilers',
      gender: 'M',
    };
    expect(reply.parse(accountSchema.strict())).toEqual(saved);
    expect(await user.api.get(api.account, accountSchema)).toEqual(saved);
    const other = await signUp(ctx);
    expect(await other.api.get(api.userStats(user.id), userStatsSchema)).toMatchObject({
      name: 'Grace',
      birthdate: '1985-12-09',
      livein: 'France',
    });
    const id = await ask(user);
    expect((await other.api.get(api.question(id), questionSchema)).user_name).toBe('Grace');
  });

  it('clears the favourites when they are left empty or out', async () => {
    const user = await signUp(ctx);
    await user.api.post(api.account, accountUpdateBodySchema, update, accountSchema);
    for (const favourites of [
      { favoriteCategory: '', favoriteTopic: '' },
      { favoriteCategory: null, favoriteTopic: null },
      {},
    ]) {
      await user.api.post(api.account, accountUpdateBodySchema, update, accountSchema);
      const { firstName, birthDate, livingIn } = update;
      const reply = await user.api.raw('POST', api.account, { firstName, birthDate, livingIn, ...favourites });
      expect(reply.status, JSON.stringify(favourites)).toBe(200);
      expect(reply.parse(accountSchema)).toMatchObject({ favorite_category: null, favorite_topic: null });
    }
  });

  it('refuses bad input field by field and changes nothing', async () => {
    const user = await signUp(ctx);
    const before = await user.api.get(api.account, accountSchema);
    const cases: [Record<string, unknown>, string, string?][] = [
      [{ ...update, firstName: '' }, 'firstName'],
      [{ ...update, firstName: 'x'.repeat(51) }, 'firstName'],
      [{ ...update, birthDate: '1985-13-01' }, 'birthDate'],
      [{ ...update, birthDate: '09/12/1985' }, 'birthDate'],
      [
        { ...update, birthDate: new Date().toISOString().slice(0, 10) },
        'birthDate',
        'You must be between 13 and 120 years old',
      ],
      [{ ...update, birthDate: '1890-01-01' }, 'birthDate'],
      [{ ...update, livingIn: undefined }, 'livingIn'],
      [{ ...update, livingIn: 1 }, 'livingIn', 'Unknown country'],
      [{ ...update, favoriteCategory: 999 }, 'favoriteCategory', 'Unknown category'],
      [{ ...update, favoriteCategory: 'Sports' }, 'favoriteCategory'],
      [{ ...update, favoriteTopic: 'x'.repeat(51) }, 'favoriteTopic'],
    ];
    for (const [body, field, message] of cases) {
      const reply = await user.api.raw('POST', api.account, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      const error = reply.error();
      expect(Object.keys(error.errors ?? {}), JSON.stringify(body)).toEqual([field]);
      if (message) expect(error.message).toBe(message);
    }
    expect(await user.api.get(api.account, accountSchema)).toEqual(before);
  });

  it('keeps the voter group a vote was cast in when the voter later moves or corrects a birth date', async () => {
    const author = await signUp(ctx);
    const voter = await signUp(ctx, { livingIn: 840, birthDate: '1990-06-15', gender: 'F' });
    const id = await ask(author);
    await voter.api.post(api.answer(id), answerBodySchema, { choice: 1 }, questionSchema);
    await voter.api.post(
      api.account,
      accountUpdateBodySchema,
      { ...update, livingIn: 250, birthDate: '1970-01-01' },
      accountSchema,
    );
    const segments = await ctx.database.db
      .selectFrom('vote_segments')
      .select(['country_id', 'birth_year', 'gender', 'count'])
      .where('question_id', '=', id)
      .execute();
    expect(segments).toEqual([{ country_id: 840, birth_year: 1990, gender: 'F', count: 1 }]);
    // The next vote is cast in the new group.
    const next = await ask(author);
    await voter.api.post(api.answer(next), answerBodySchema, { choice: 1 }, questionSchema);
    const nextSegments = await ctx.database.db
      .selectFrom('vote_segments')
      .select(['country_id', 'birth_year', 'gender', 'count'])
      .where('question_id', '=', next)
      .execute();
    expect(nextSegments).toEqual([{ country_id: 250, birth_year: 1970, gender: 'F', count: 1 }]);
  });
});

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
import { recordVotes } from './questions.js';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

async function versionOf(user: TestUser): Promise<number> {
  return (
    await ctx.database.db
      .selectFrom('users')
      .select('state_version')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow()
  ).state_version;
}

/** How far the call moved each person's state version. */
async function stepsOf(people: TestUser[], call: () => Promise<unknown>): Promise<number[]> {
  const before = await Promise.all(people.map(versionOf));
  await call();
  return (await Promise.all(people.map(versionOf))).map((after, index) => after - before[index]);
}

describe('the state version', () => {
  it('moves one step for each person whose own state a write changed, and not at all for a write that changed nothing', async () => {
    const [author, person] = [await signUp(ctx), await signUp(ctx)];
    const question = await ask(author);
    const cases: [string, () => Promise<unknown>, number[]][] = [
      ['answer', () => person.api.post(api.answer(question), answerBodySchema, { choice: 1 }, questionSchema), [0, 1]],
      ['like', () => person.api.post(api.like(question), likedSchema), [0, 1]],
      ['like again', () => person.api.post(api.like(question), likedSchema), [0, 0]],
      ['hide', () => person.api.post(api.pass(question), passedSchema), [0, 1]],
      ['hide again', () => person.api.post(api.pass(question), passedSchema), [0, 0]],
      ['show again', () => person.api.post(api.unpass(question), passedSchema), [0, 1]],
      ['show again, twice', () => person.api.post(api.unpass(question), passedSchema), [0, 0]],
      ['follow', () => person.api.post(api.follow(author.id), connectedSchema), [0, 1]],
      ['block', () => author.api.post(api.ban(person.id), blockedSchema), [1, 1]],
      ['block again', () => author.api.post(api.ban(person.id), blockedSchema), [0, 0]],
    ];
    const moved: Record<string, number[]> = {};
    const expected: Record<string, number[]> = {};
    for (const [name, call, steps] of cases) {
      moved[name] = await stepsOf([author, person], call);
      expected[name] = steps;
    }
    expect(moved).toEqual(expected);
  });

  it('moves a voter one step per vote of a batch, each vote committed with the version it moved to', async () => {
    const [author, voter] = [await signUp(ctx), await signUp(ctx)];
    const questions = [await ask(author), await ask(author)];
    const before = await versionOf(voter);
    const row = await ctx.database.db
      .selectFrom('users')
      .select(['id', 'gender', 'birth_year', 'country_id'])
      .where('id', '=', voter.id)
      .executeTakeFirstOrThrow();
    const committed = await ctx.app.changes.commitChanges((trx) =>
      recordVotes(
        trx,
        questions.map((questionId) => ({ questionId, voter: row, choice: 1 })),
      ),
    );
    expect(committed.filter((change) => change.kind === 'voted').map((change) => change.version)).toEqual([
      before + 1,
      before + 2,
    ]);
    expect(await versionOf(voter)).toBe(before + 2);
    // What this instance keeps of the voter took both votes.
    expect((await voter.api.get(api.question(questions[1]), questionSchema)).answer).toMatchObject({ choice: 1 });
  });
});

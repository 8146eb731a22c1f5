import { answerBodySchema, api, likedSchema, questionSchema } from '@pollscope/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext } from '../test/helper.js';
import { runCommand } from '../test/server-process.js';
import { describeMismatch, findTallyMismatches } from './check.js';

let ctx: TestContext;
let questionId: number;
let voterId: number;
beforeAll(async () => {
  ctx = await createTestApp();
  const author = await signUp(ctx);
  questionId = await ask(author, { choices: ['A', 'B', 'C'] });
  for (const choice of [1, 2, 2]) {
    const voter = await signUp(ctx, { gender: choice === 1 ? 'M' : 'F' });
    await voter.api.post(api.answer(questionId), answerBodySchema, { choice }, questionSchema);
    await voter.api.post(api.like(questionId), likedSchema);
    voterId = voter.id;
  }
});
afterAll(() => ctx.close());

describe('the tally check', () => {
  it('finds nothing wrong in a database written by the app', async () => {
    expect(await findTallyMismatches(ctx.database.db)).toEqual([]);
  });

  it('names every tally that differs from its rows, and a missing tally row', async () => {
    const { db } = ctx.database;
    await db
      .updateTable('vote_tallies')
      .set({ count: sql`count + 1` })
      .where('question_id', '=', questionId)
      .where('choice', '=', 2)
      .execute();
    await db.deleteFrom('vote_tallies').where('question_id', '=', questionId).where('choice', '=', 1).execute();
    await db
      .updateTable('vote_segments')
      .set({ count: 5 })
      .where('question_id', '=', questionId)
      .where('choice', '=', 1)
      .execute();
    await db.updateTable('questions').set({ vote_count: 7, like_count: 0 }).where('id', '=', questionId).execute();
    await db.updateTable('users').set({ like_count: 2, answer_count: 0 }).where('id', '=', voterId).execute();
    try {
      const found = (await findTallyMismatches(db)).map(describeMismatch);
      expect(found).toEqual(
        expect.arrayContaining([
          `vote_tallies.count question_id=${questionId} choice=2: stored 3, counted 2`,
          `vote_tallies.count question_id=${questionId} choice=1: stored 0, counted 1`,
          `vote_segments.count question_id=${questionId} country_id=840 gender=M birth_year=1990 choice=1: stored 5, counted 1`,
          `questions.vote_count id=${questionId}: stored 7, counted 3`,
          `questions.like_count id=${questionId}: stored 0, counted 3`,
          `users.like_count id=${voterId}: stored 2, counted 1`,
          `users.answer_count id=${voterId}: stored 0, counted 1`,
        ]),
      );
      expect(found).toHaveLength(7);

      const command = await runCommand('src/db/check-cli.ts', [ctx.config.databaseUrl]);
      expect(command.code).toBe(1);
      expect(command.stderr).toContain('7 tally mismatches');
      expect(command.stderr).toContain(`questions.vote_count id=${questionId}: stored 7, counted 3`);
    } finally {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('vote_tallies')
          .set({ count: 2 })
          .where('question_id', '=', questionId)
          .where('choice', '=', 2)
          .execute();
        await trx.insertInto('vote_tallies').values({ question_id: questionId, choice: 1, count: 1 }).execute();
        await trx
          .updateTable('vote_segments')
          .set({ count: 1 })
          .where('question_id', '=', questionId)
          .where('choice', '=', 1)
          .execute();
        await trx.updateTable('questions').set({ vote_count: 3, like_count: 3 }).where('id', '=', questionId).execute();
        await trx.updateTable('users').set({ like_count: 1, answer_count: 1 }).where('id', '=', voterId).execute();
      });
    }
    expect(await findTallyMismatches(db)).toEqual([]);
  });

  it('the db:check command exits with 0 on a sound database', async () => {
    const command = await runCommand('src/db/check-cli.ts', [], { DATABASE_URL: ctx.config.databaseUrl });
    expect(command.stdout).toContain('Every tally matches its rows.');
    expect(command.code).toBe(0);
  });
});

import {
  answerBodySchema,
  api,
  blockedSchema,
  breakdownFilterBodySchema,
  breakdownResultSchema,
  connectedSchema,
  connectionSchema,
  feedSchema,
  likedSchema,
  loginBodySchema,
  notificationPageSchema,
  passedSchema,
  questionPageSchema,
  questionSchema,
  relateBodySchema,
  relateResultSchema,
  settingsSchema,
  settingsUpdateBodySchema,
  statsSchema,
  tokenResponseSchema,
} from '@pollscope/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findTallyMismatches } from '../../db/check.js';
import { activityByDay } from '../site/index.js';
import { ask, client, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { castVotes, insertPeople } from '../../test/seed.js';
import { runCommand } from '../../test/server-process.js';

const [US, FRANCE, JAPAN] = [840, 250, 392];

let ctx: TestContext;
beforeAll(async () => {
  // A mail service that cannot be reached: a mail queued stays in the outbox, whenever the worker's round comes.
  ctx = await createTestApp({ smtpUrl: 'smtp://127.0.0.1:9' });
});
afterAll(() => ctx.close());

const PASSWORD = 'correct horse';
const deleteAs = (user: TestUser, password = PASSWORD) => user.api.raw('POST', api.deleteAccount, { password });

/** Every row anywhere that names the person, by table. */
async function rowsOf(userId: number, email: string): Promise<Record<string, number>> {
  const { db } = ctx.database;
  const count = async (query: { execute(): Promise<unknown[]> }) => (await query.execute()).length;
  return {
    users: await count(db.selectFrom('users').select('id').where('id', '=', userId)),
    sessions: await count(db.selectFrom('sessions').select('user_id').where('user_id', '=', userId)),
    questions: await count(db.selectFrom('questions').select('id').where('user_id', '=', userId)),
    votes: await count(db.selectFrom('votes').select('id').where('user_id', '=', userId)),
    likes: await count(db.selectFrom('likes').select('id').where('user_id', '=', userId)),
    passes: await count(db.selectFrom('passes').select('user_id').where('user_id', '=', userId)),
    follows: await count(
      db
        .selectFrom('follows')
        .select('follower_id')
        .where((eb) => eb.or([eb('follower_id', '=', userId), eb('followee_id', '=', userId)])),
    ),
    blocks: await count(
      db
        .selectFrom('blocks')
        .select('blocker_id')
        .where((eb) => eb.or([eb('blocker_id', '=', userId), eb('blocked_id', '=', userId)])),
    ),
    notifications: await count(db.selectFrom('notifications').select('id').where('user_id', '=', userId)),
    notification_actors: await count(
      db.selectFrom('notification_actors').select('actor_id').where('actor_id', '=', userId),
    ),
    password_reset_tokens: await count(
      db.selectFrom('password_reset_tokens').select('user_id').where('user_id', '=', userId),
    ),
    mail_outbox: await count(db.selectFrom('mail_outbox').select('id').where('recipient', '=', email.toLowerCase())),
  };
}

/** What the site's chart counts, in all. */
async function activityTotals() {
  const totals = { answers: 0, questions: 0, users: 0, likes: 0 };
  for (const counts of (await activityByDay(ctx.database.db)).values())
    for (const kind of Object.keys(totals) as (keyof typeof totals)[]) totals[kind] += counts[kind];
  return totals;
}

describe('deleting an account', () => {
  it('deletes the person and everything of theirs in one go, keeping every count equal to its rows, and the email can register again', async () => {
    const leaver = await signUp(ctx);
    const [friend, fan, blocker, blocked] = [
      await signUp(ctx),
      await signUp(ctx),
      await signUp(ctx),
      await signUp(ctx),
    ];
    const own = await ask(leaver, { question: 'Leaving soon?', tags: ['farewell'], category: 3 });
    const second = await ask(leaver, { type: 'RS', question: 'Rate the goodbye', choices: [] });
    const friends = await ask(friend, { question: 'Stay or go?' });
    // Others on the leaver's questions.
    await friend.api.post(api.answer(own), answerBodySchema, { choice: 1 }, questionSchema);
    await friend.api.post(api.like(own), likedSchema);
    await fan.api.post(api.answer(second), answerBodySchema, { choice: 7 }, questionSchema);
    await fan.api.post(api.pass(second), passedSchema);
    await fan.api.post(api.follow(leaver.id), connectedSchema);
    await blocker.api.post(api.ban(leaver.id), blockedSchema);
    // The leaver on others' questions, and with others.
    await leaver.api.post(api.answer(friends), answerBodySchema, { choice: 2 }, questionSchema);
    await leaver.api.post(api.answer(own), answerBodySchema, { choice: 2 }, questionSchema);
    await leaver.api.post(api.like(friends), likedSchema);
    await leaver.api.post(api.pass(await ask(fan, { question: 'Hide me?' })), passedSchema);
    await fan.api.post(api.like(friends), likedSchema);
    await leaver.api.post(api.follow(friend.id), connectedSchema);
    await leaver.api.post(api.ban(blocked.id), blockedSchema);
    // A mail to the leaver's address not yet sent (the notice of a new password), and a link to choose another.
    const settings = await leaver.api.get(api.settings, settingsSchema);
    await leaver.api.post(
      api.settings,
      settingsUpdateBodySchema,
      { ...settings, password: PASSWORD, current_password: 'correct horse' },
      settingsSchema,
    );
    await client(ctx.app).raw('POST', api.passwordReset, { email: leaver.email });
    // What is kept in memory of them: the fan’s first page of the feed (the question they hid left out), the tag’s
    // list.
    const feedOf = async (user: TestUser) =>
      (await user.api.get(api.feed, feedSchema)).questions.map((question) => question.id);
    const tagged = async () =>
      (await friend.api.get(api.tag('farewell'), questionPageSchema)).questions.map((question) => question.id);
    expect(await feedOf(fan)).toEqual([own]);
    expect(await tagged()).toEqual([own]);
    const before = await rowsOf(leaver.id, leaver.email);
    expect(Object.entries(before).filter(([, rows]) => rows === 0)).toEqual([]);
    const activityBefore = await activityTotals();
    const friendBefore = await friend.api.get(api.myStats, statsSchema);

    const reply = await deleteAs(leaver);
    expect(reply.status).toBe(204);
    expect(reply.text).toBe('');

    expect(await rowsOf(leaver.id, leaver.email)).toEqual(
      Object.fromEntries(Object.keys(before).map((table) => [table, 0])),
    );
    expect(await findTallyMismatches(ctx.database.db)).toEqual([]);
    // The chart forgets their 2 answers and the 2 on their questions, their like and the one on their question, their
    // questions and them.
    expect(await activityTotals()).toEqual({
      answers: activityBefore.answers - 4,
      questions: activityBefore.questions - 2,
      users: activityBefore.users - 1,
      likes: activityBefore.likes - 2,
    });

    // Signed out for good, and their questions gone for everyone.
    expect((await leaver.api.raw('GET', api.myStats)).status).toBe(401);
    const login = await client(ctx.app).raw('POST', api.login, { email: leaver.email, password: PASSWORD });
    expect(login.status).toBe(400);
    for (const id of [own, second]) expect((await friend.api.raw('GET', api.question(id))).status).toBe(404);
    expect(await feedOf(fan)).toEqual([]);
    expect(await tagged()).toEqual([]);
    expect((await friend.api.raw('GET', api.userStats(leaver.id))).status).toBe(404);
    // Others keep what is theirs, counted without what went.
    expect(await friend.api.get(api.myStats, statsSchema)).toEqual({
      question: 1,
      answer: friendBefore.answer - 1,
      like: friendBefore.like - 1,
    });
    const friendsQuestion = await friend.api.get(api.question(friends), questionSchema);
    expect(friendsQuestion).toMatchObject({ like_count: 1, result: { count: 0 } });
    // The friend's like notification keeps the fan only; the fan's follow is gone with its followee.
    const { notifications } = await friend.api.get(api.notifications, notificationPageSchema);
    expect(
      notifications
        .filter((notification) => notification.kind === 'like')
        .map((notification) => notification.actors.map((actor) => actor.id)),
    ).toEqual([[fan.id]]);
    expect(await fan.api.get(api.connections, connectionSchema.array())).toEqual([]);

    // The address can register again, as someone new.
    const again = await client(ctx.app).raw('POST', api.register, {
      firstName: 'Back',
      birthDate: '1990-06-15',
      gender: 'F',
      livingIn: 840,
      email: leaver.email,
      password: 'another horse',
    });
    expect(again.status).toBe(201);
    const newcomer = client(ctx.app, again.parse(tokenResponseSchema).token);
    expect(await newcomer.get(api.myStats, statsSchema)).toEqual({ question: 0, answer: 0, like: 0 });
  });

  it('forgets the private releases of their questions, and keeps what a release of others spent', async () => {
    const { db } = ctx.database;
    const [leaver, other] = [await signUp(ctx), await signUp(ctx)];
    const older = await ask(other);
    const own = await ask(leaver);
    const newer = await ask(other);
    // A breakdown of their question, and relates of it with an older and a newer question: a pair's noise is kept under
    // its lower id.
    const noise = (question_id: number, other_id: number) => ({ question_id, other_id, cell: 0, node: 1, noise: 3 });
    await db
      .insertInto('release_noise')
      .values([noise(own, 0), noise(older, own), noise(own, newer), noise(older, 0)])
      .execute();
    const epoch = (low_id: number, high_id: number) => ({ low_id, high_id, epoch: 1, low_counted: 1, high_counted: 1 });
    await db
      .insertInto('relate_releases')
      .values([epoch(older, own), epoch(own, newer), epoch(older, newer)])
      .execute();
    await db
      .insertInto('relate_budgets')
      .values([older, own, newer].map((question_id) => ({ question_id, pairs: 2 })))
      .execute();

    expect((await deleteAs(leaver)).status).toBe(204);
    expect(
      await db
        .selectFrom('release_noise')
        .select(['question_id', 'other_id'])
        .where('question_id', 'in', [older, own, newer])
        .execute(),
    ).toEqual([{ question_id: older, other_id: 0 }]);
    expect(
      await db
        .selectFrom('relate_releases')
        .select(['low_id', 'high_id'])
        .where('low_id', 'in', [older, own, newer])
        .execute(),
    ).toEqual([{ low_id: older, high_id: newer }]);
    const budgets = await db
      .selectFrom('relate_budgets')
      .select('question_id')
      .where('question_id', 'in', [older, own, newer])
      .orderBy('question_id')
      .execute();
    expect(budgets.map((budget) => budget.question_id)).toEqual([older, newer]);
  });

  it('refuses a wrong password with 400 and changes nothing', async () => {
    const person = await signUp(ctx);
    await ask(person);
    const before = await rowsOf(person.id, person.email);
    for (const body of [{ password: 'wrong horse' }, { password: '' }, {}]) {
      const reply = await person.api.raw('POST', api.deleteAccount, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(reply.error().errors ?? {})).toEqual(['password']);
    }
    expect((await deleteAs(person, 'wrong horse')).error()).toEqual({
      message: 'Wrong password',
      errors: { password: 'Wrong password' },
    });
    expect(await rowsOf(person.id, person.email)).toEqual(before);
    expect((await person.api.raw('GET', api.myStats)).status).toBe(200);
    expect((await client(ctx.app).raw('POST', api.deleteAccount, { password: PASSWORD })).status).toBe(401);
  });

  it('ends every session of the person, not only the one that deleted', async () => {
    const person = await signUp(ctx);
    const { token } = await client(ctx.app).post(
      api.login,
      loginBodySchema,
      { email: person.email, password: PASSWORD },
      tokenResponseSchema,
    );
    expect((await client(ctx.app, token).raw('GET', api.myStats)).status).toBe(200);
    expect((await deleteAs(person)).status).toBe(204);
    expect((await client(ctx.app, token).raw('GET', api.myStats)).status).toBe(401);
    expect((await deleteAs(person)).status).toBe(401);
  });
});

describe('deleting a voter while others vote', () => {
  const year = new Date().getUTCFullYear();
  const groups = [
    { gender: 'F' as const, birth_year: year - 25, country_id: US },
    { gender: 'M' as const, birth_year: year - 40, country_id: FRANCE },
    { gender: 'F' as const, birth_year: year - 60, country_id: JAPAN },
  ];

  it(
    'leaves every tally, breakdown and relate equal to the votes on a question of 10,000 votes',
    { timeout: 120_000 },
    async () => {
      const { db } = ctx.database;
      const author = await signUp(ctx);
      const big = await ask(author, { question: 'Tea, coffee or neither?', choices: ['Tea', 'Coffee', 'Neither'] });
      const second = await ask(author, { question: 'Morning or evening?', choices: ['Morning', 'Evening'] });
      // 10,000 voters in three groups, written straight in and counted by the app's own vote writer.
      const seeded = (
        await Promise.all(groups.map((group, index) => insertPeople(db, [5000, 3000, 2000][index], group)))
      ).flat();
      await castVotes(
        db,
        seeded.flatMap((voter, index) => [
          { questionId: big, voter, choice: 1 + (index % 3) },
          ...(index % 2 === 0 ? [{ questionId: second, voter, choice: 1 + (index % 4 === 0 ? 1 : 0) }] : []),
        ]),
      );
      // The leaver, in Japan like the smallest group, answered both; a researcher too, to look.
      const leaver = await signUp(ctx, { livingIn: JAPAN, gender: 'F', birthDate: `${year - 60}-01-01` });
      const researcher = await signUp(ctx, { livingIn: US });
      for (const person of [leaver, researcher]) {
        await person.api.post(api.answer(big), answerBodySchema, { choice: 3 }, questionSchema);
        await person.api.post(api.answer(second), answerBodySchema, { choice: 2 }, questionSchema);
      }
      // Breakdown and relate are read, so each instance keeps their tables in memory with the leaver in them.
      const inJapan = { country: JAPAN };
      await researcher.api.post(api.breakdown(big), breakdownFilterBodySchema, inJapan, breakdownResultSchema);
      await researcher.api.post(api.relate(big, second), relateBodySchema, { choice: 2 }, relateResultSchema);
      const latecomers = await Promise.all(
        Array.from({ length: 30 }, (_, index) => signUp(ctx, { livingIn: [US, FRANCE, JAPAN][index % 3] })),
      );

      const [deleted, ...votes] = await Promise.all([
        deleteAs(leaver),
        ...latecomers.map((voter, index) => voter.api.raw('POST', api.answer(big), { choice: 1 + (index % 3) })),
        ...latecomers.map((voter, index) => voter.api.raw('POST', api.answer(second), { choice: 1 + (index % 2) })),
      ]);
      expect(deleted.status).toBe(204);
      expect(votes.map((vote) => vote.status)).toEqual(votes.map(() => 200));

      // Counted from the votes themselves, up to a place in each question's order when given.
      const countOf = async (
        question: number,
        where: { country?: number; secondChoice?: number; upTo?: number; secondUpTo?: number } = {},
      ) => {
        let query = db
          .selectFrom('votes')
          .select(['votes.choice', (eb) => eb.fn.countAll<number>().as('votes')])
          .where('votes.question_id', '=', question);
        if (where.country !== undefined) query = query.where('votes.country_id', '=', where.country);
        if (where.upTo !== undefined) query = query.where('votes.seq', '<=', where.upTo);
        if (where.secondChoice !== undefined)
          query = query.where('votes.user_id', 'in', (eb) =>
            eb
              .selectFrom('votes as s')
              .select('s.user_id')
              .where('s.question_id', '=', second)
              .where('s.choice', '=', where.secondChoice!)
              .where('s.seq', '<=', where.secondUpTo ?? Number.MAX_SAFE_INTEGER),
          );
        const rows = await query.groupBy('votes.choice').execute();
        return new Map(rows.map((row) => [row.choice, Number(row.votes)]));
      };
      const total = (counts: Map<number, number>) => [...counts.values()].reduce((sum, count) => sum + count, 0);
      const all = await countOf(big);
      expect(total(all)).toBe(10_000 + 1 + 30);

      const shown = await researcher.api.get(api.question(big), questionSchema);
      expect(shown.result?.count).toBe(total(all));
      // Everyone is counted exactly up to the release point, a group from the private release: the
      // votes left up to that point, give or take its noise (docs/insights.md).
      const breakdown = await researcher.api.post(
        api.breakdown(big),
        breakdownFilterBodySchema,
        inJapan,
        breakdownResultSchema,
      );
      expect(breakdown.overall.count).toBe(total(await countOf(big, { upTo: breakdown.privacy.counted })));
      const inJapanReleased = total(await countOf(big, { ...inJapan, upTo: breakdown.privacy.counted }));
      expect(Math.abs(breakdown.question.result!.count - inJapanReleased)).toBeLessThanOrEqual(
        5 * breakdown.privacy.count_sd,
      );
      const relate = await researcher.api.post(
        api.relate(big, second),
        relateBodySchema,
        { choice: 2 },
        relateResultSchema,
      );
      const eveningReleased = total(
        await countOf(big, {
          secondChoice: 2,
          upTo: relate.privacy!.first_counted,
          secondUpTo: relate.privacy!.second_counted,
        }),
      );
      expect(Math.abs(relate.question.result!.count - eveningReleased)).toBeLessThanOrEqual(
        5 * relate.privacy!.count_sd,
      );
      // The tallies the cards are read from, per choice.
      const tallies = await db
        .selectFrom('vote_tallies')
        .select(['choice', 'count'])
        .where('question_id', '=', big)
        .execute();
      expect(new Map(tallies.map((tally) => [tally.choice, tally.count]))).toEqual(all);
      const { vote_count, votes_removed } = await db
        .selectFrom('questions')
        .select(['vote_count', 'votes_removed'])
        .where('id', '=', big)
        .executeTakeFirstOrThrow();
      expect([vote_count, votes_removed]).toEqual([total(all), 1]);
      // No two votes share a place in the question's order, and the latest follow on from before the deletion.
      const { places, last } = await db
        .selectFrom('votes')
        .select((eb) => [eb.fn.count<number>(sql`distinct seq`).as('places'), eb.fn.max<number>('seq').as('last')])
        .where('question_id', '=', big)
        .executeTakeFirstOrThrow();
      expect(Number(places)).toBe(total(all));
      expect(Number(last)).toBe(vote_count + votes_removed);

      expect(await findTallyMismatches(db)).toEqual([]);
      const check = await runCommand('src/db/check-cli.ts', [], { DATABASE_URL: ctx.config.databaseUrl });
      expect(check.stdout).toContain('Every tally matches its rows.');
      expect(check.code).toBe(0);
    },
  );
});

describe('deleting a person named in a mail still waiting to be sent', () => {
  it('takes the mail back, and mails what it listed again without them', async () => {
    // A mail service that cannot be reached: every mail waits in the outbox for its next try.
    const waiting = await createTestApp({ smtpUrl: 'smtp://127.0.0.1:9', emailBatchSeconds: 1 });
    try {
      const [ann, bob, carl] = [
        await signUp(waiting, { firstName: 'Ann' }),
        await signUp(waiting, { firstName: 'Bob' }),
        await signUp(waiting, { firstName: 'Carl' }),
      ];
      const question = await ask(ann);
      const setMail = (notification: boolean) =>
        ann.api.post(api.settings, settingsUpdateBodySchema, { email: ann.email, notification }, settingsSchema);
      // Both likes in one mail: it is queued once notification mail is on again.
      await setMail(false);
      await carl.api.post(api.like(question), likedSchema);
      await bob.api.post(api.like(question), likedSchema);
      await setMail(true);
      const mailsToAnn = () =>
        waiting.database.db
          .selectFrom('mail_outbox')
          .select(['message_id', 'text'])
          .where('recipient', '=', ann.email.toLowerCase())
          .execute();
      const [first] = await vi.waitFor(
        async () => {
          const mails = await mailsToAnn();
          expect(mails).toHaveLength(1);
          return mails;
        },
        { timeout: 15_000, interval: 100 },
      );
      expect(first.text).toContain('Bob and Carl liked');

      expect((await deleteAs(bob)).status).toBe(204);
      const [again] = await vi.waitFor(
        async () => {
          const mails = await mailsToAnn();
          expect(mails.map((mail) => mail.message_id)).not.toContain(first.message_id);
          expect(mails).toHaveLength(1);
          return mails;
        },
        { timeout: 15_000, interval: 100 },
      );
      // What the mail lists, above its footer: the footer's unsubscribe token is random text that may spell a name.
      const listed = again.text.split('\n-- ')[0];
      expect(listed).toContain('Carl liked');
      expect(listed).not.toContain('Bob');
    } finally {
      await waiting.close();
    }
  });
});

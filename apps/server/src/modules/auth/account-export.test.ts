import {
  accountExportSchema,
  answerBodySchema,
  api,
  blockedSchema,
  connectedSchema,
  displayId,
  likedSchema,
  passedSchema,
  questionSchema,
  settingsSchema,
  settingsUpdateBodySchema,
  type AccountExport,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, client, createTestApp, signUp, type TestContext } from '../../test/helper.js';
import { moderate, signUpAdmin } from '../../test/moderation.js';
import { castVotes, insertQuestions } from '../../test/seed.js';
import { accountExport, ROWS_PER_PIECE } from './account-export.js';

let ctx: TestContext;
const VOTES = 5_000;
const ADMIN_EMAIL = 'admin@pollscope.test';
beforeAll(async () => {
  ctx = await createTestApp({ adminEmails: [ADMIN_EMAIL] });
});
afterAll(() => ctx.close());

describe('downloading one’s data', () => {
  it('gives everything stored about the person as a JSON attachment, and nothing of anyone else’s', async () => {
    const person = await signUp(ctx, { firstName: 'Ada', birthDate: '1990-06-15', gender: 'F', livingIn: 826 });
    const [friend, fan, pest] = [
      await signUp(ctx, { firstName: 'Bo' }),
      await signUp(ctx, { firstName: 'Cy' }),
      await signUp(ctx, { firstName: 'Di' }),
    ];
    const asked = await ask(person, {
      question: 'Tea or coffee?',
      choices: ['Tea', 'Coffee'],
      tags: ['drinks'],
      category: 2,
    });
    const rated = await ask(person, { type: 'RS', question: 'Rate Mondays', choices: [] });
    const friends = await ask(friend, { question: 'Stay or go?', choices: ['Stay', 'Go'] });
    const hidden = await ask(friend, { question: 'Hide me?' });
    await friend.api.post(api.answer(asked), answerBodySchema, { choice: 2 }, questionSchema);
    await person.api.post(api.answer(asked), answerBodySchema, { choice: 1 }, questionSchema);
    await person.api.post(api.answer(friends), answerBodySchema, { choice: 2 }, questionSchema);
    await person.api.post(api.like(friends), likedSchema);
    await person.api.post(api.pass(hidden), passedSchema);
    await person.api.post(api.follow(friend.id), connectedSchema);
    await fan.api.post(api.follow(person.id), connectedSchema);
    await fan.api.post(api.like(asked), likedSchema);
    await person.api.post(api.ban(pest.id), blockedSchema);
    const settings = await person.api.get(api.settings, settingsSchema);
    await person.api.post(api.settings, settingsUpdateBodySchema, { ...settings, notification: false }, settingsSchema);

    // A link to choose a new password, asked for and not used: its times are theirs, its token never shown.
    await client(ctx.app).raw('POST', api.passwordReset, { email: person.email });
    const reply = await person.api.raw('GET', api.exportAccount);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(reply.headers['content-disposition']).toBe(
      `attachment; filename="pollscope-${displayId('UID', person.id)}-${new Date().toISOString().slice(0, 10)}.json"`,
    );
    expect(reply.headers['cache-control']).toBe('no-store');
    const data = reply.json() as AccountExport;
    // Parsing keeps only what the contract declares: nothing else was sent.
    expect(accountExportSchema.parse(data)).toEqual(data);

    expect(data.account).toEqual({
      id: person.id,
      email: person.email,
      first_name: 'Ada',
      birthdate: '1990-06-15',
      gender: 'F',
      country: { id: 826, name: 'United Kingdom' },
      favorite_category: null,
      favorite_topic: null,
      created_at: expect.any(String),
    });
    expect(data.settings).toEqual({
      email: person.email,
      notification: false,
      language: 'en',
      question_languages: null,
    });
    expect(data.questions).toEqual([
      {
        id: asked,
        type: 'MC',
        title: 'Tea or coffee?',
        language: 'en',
        category: { id: 2, name: expect.any(String) },
        choices: [
          { key: 1, value: 'Tea' },
          { key: 2, value: 'Coffee' },
        ],
        tags: ['drinks'],
        published_at: expect.any(String),
        like_count: 1,
        result: {
          count: 2,
          answers: [
            { key: 1, percent: 50 },
            { key: 2, percent: 50 },
          ],
        },
      },
      expect.objectContaining({
        id: rated,
        type: 'RS',
        choices: { min: 1, max: 10 },
        result: expect.objectContaining({ count: 0 }),
      }),
    ]);
    expect(data.votes.map(({ question, question_title, choice }) => ({ question, question_title, choice }))).toEqual([
      { question: asked, question_title: 'Tea or coffee?', choice: 1 },
      { question: friends, question_title: 'Stay or go?', choice: 2 },
    ]);
    expect(data.likes.map((like) => like.question)).toEqual([friends]);
    expect(data.hidden).toEqual([{ question: hidden, question_title: 'Hide me?' }]);
    expect(data.following.map(({ id, name }) => ({ id, name }))).toEqual([{ id: friend.id, name: 'Bo' }]);
    expect(data.followers.map(({ id, name }) => ({ id, name }))).toEqual([{ id: fan.id, name: 'Cy' }]);
    expect(data.blocked.map(({ id, name }) => ({ id, name }))).toEqual([{ id: pest.id, name: 'Di' }]);
    expect(data.notifications.map(({ kind, actors, question }) => ({ kind, actors, question }))).toEqual([
      { kind: 'votes', actors: [], question: asked },
      { kind: 'follow', actors: [{ id: fan.id, name: 'Cy' }], question: null },
      { kind: 'like', actors: [{ id: fan.id, name: 'Cy' }], question: asked },
    ]);
    expect(data.sessions).toHaveLength(1);
    expect(data.password_reset_links).toEqual([{ requested_at: expect.any(String), expires_at: expect.any(String) }]);
    // Mail waits only until the outbox's worker hands it over: whatever waits is listed by subject.
    for (const mail of data.mail_waiting) expect(mail.subject).toMatch(/\S/);

    // No hash of a password or token, nor anyone else's address.
    const { db } = ctx.database;
    const { password_hash } = await db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', person.id)
      .executeTakeFirstOrThrow();
    const sessions = await db.selectFrom('sessions').select('token_hash').where('user_id', '=', person.id).execute();
    const resetTokens = await db
      .selectFrom('password_reset_tokens')
      .select('token_hash')
      .where('user_id', '=', person.id)
      .execute();
    const hashes = [...sessions, ...resetTokens].map((row) => row.token_hash);
    for (const secret of [password_hash, 'scrypt$', person.token, ...hashes, friend.email, fan.email, pest.email]) {
      expect(reply.text).not.toContain(secret);
    }
  });

  // Issue 43, finding 9: the title of a removed question stayed in its voters' downloads.
  it('leaves out the titles of questions moderation withholds from the person, and keeps their own', async () => {
    const admin = await signUpAdmin(ctx, ADMIN_EMAIL);
    const [person, author, suspended] = [await signUp(ctx), await signUp(ctx), await signUp(ctx)];
    const removed = await ask(author, { question: 'Buy my pills?' });
    const kept = await ask(author, { question: 'Sun or rain?' });
    const bySuspended = await ask(suspended, { question: 'Click my link?' });
    const own = await ask(person, { question: 'Mine, then removed?' });
    for (const id of [removed, kept, bySuspended]) {
      await person.api.post(api.answer(id), answerBodySchema, { choice: 1 }, questionSchema);
      await person.api.post(api.like(id), likedSchema);
    }
    const hiddenByPerson = await ask(author, { question: 'Spam, hidden then removed?' });
    await person.api.post(api.pass(hiddenByPerson), passedSchema);
    for (const id of [removed, hiddenByPerson, own])
      expect((await moderate(admin, { target: 'question', id, action: 'remove', reason: 'Spam' })).status).toBe(200);
    expect(
      (await moderate(admin, { target: 'user', id: suspended.id, action: 'suspend', reason: 'Spam' })).status,
    ).toBe(200);

    const download = accountExportSchema.parse((await person.api.raw('GET', api.exportAccount)).json());
    const titles = (items: { question: number; question_title: string | null }[]) =>
      Object.fromEntries(items.map((item) => [item.question, item.question_title]));
    const answered = { [removed]: null, [kept]: 'Sun or rain?', [bySuspended]: null };
    expect(titles(download.votes)).toEqual(answered);
    expect(titles(download.likes)).toEqual(answered);
    expect(titles(download.hidden)).toEqual({ [hiddenByPerson]: null });
    expect(JSON.stringify(download)).not.toMatch(/pills|my link|Spam, hidden/);
    expect(download.questions.map((question) => question.title)).toEqual(['Mine, then removed?']);
  });

  it('needs a session', async () => {
    expect((await client(ctx.app).raw('GET', api.exportAccount)).status).toBe(401);
  });

  // 5,000 votes make 5 lots: enough to see that no piece holds more than one, however many there are.
  it('is written a lot of rows at a time, never a whole list at once', { timeout: 60_000 }, async () => {
    const author = await signUp(ctx);
    const voter = await signUp(ctx);
    const { db } = ctx.database;
    const voterGroup = { id: voter.id, gender: 'F' as const, birth_year: 1990, country_id: 840 };
    const questions = await insertQuestions(db, author.id, VOTES);
    await castVotes(
      db,
      questions.map((questionId, index) => ({ questionId, voter: voterGroup, choice: 1 + (index % 2) })),
    );

    // The pieces as the server sends them: none holds more than a lot of rows.
    let pieces = 0;
    let longest = 0;
    for await (const piece of accountExport(db, ctx.app.memory.moderation, voter.id)) {
      pieces += 1;
      longest = Math.max(longest, piece.length);
    }
    expect(pieces).toBeGreaterThanOrEqual(VOTES / ROWS_PER_PIECE);
    expect(longest).toBeLessThan(ROWS_PER_PIECE * 150);

    const reply = await voter.api.raw('GET', api.exportAccount);
    expect(reply.status).toBe(200);
    const { votes } = accountExportSchema.parse(reply.json());
    expect(votes).toHaveLength(VOTES);
    expect(new Set(votes.map((vote) => vote.question)).size).toBe(VOTES);
    expect(votes[VOTES - 1]).toMatchObject({ question: questions[VOTES - 1], choice: 2 });
  });
});

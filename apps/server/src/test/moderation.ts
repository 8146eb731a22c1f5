import {
  answerBodySchema,
  api,
  feedSchema,
  questionPageSchema,
  questionSchema,
  roleBodySchema,
  roleSetSchema,
  trendingSchema,
  type ModerationActionBody,
  type ReportBody,
  type Role,
} from '@pollscope/contract';
import type { FastifyInstance } from 'fastify';
import { hashToken } from '../modules/auth/sessions.js';
import type { ApiClient, RawReply } from './client.js';
import { COUNTING_ANSWERS } from '../modules/moderation/reports.js';
import { ask, client, signUp, type TestContext, type TestUser } from './helper.js';

/** Reports a target as `user`, the reply as it came (201 new, 200 the same open report). */
export function report(
  user: TestUser | ApiClient,
  target: ReportBody['target'],
  id: number,
  reason: ReportBody['reason'] = 'spam',
  note?: string,
): Promise<RawReply> {
  const as = 'api' in user ? user.api : user;
  return as.raw('POST', api.reports, { target, id, reason, ...(note === undefined ? {} : { note }) });
}

/** A moderator's action as `user`, the reply as it came. */
export function moderate(user: TestUser | ApiClient, body: ModerationActionBody): Promise<RawReply> {
  const as = 'api' in user ? user.api : user;
  return as.raw('POST', api.moderationActions, body);
}

/**
 * Registers an account with an address of ADMIN_EMAILS and opens the link that proves the address,
 * as its owner would (the link is planted here rather than read from the mail, which its own test reads).
 */
export async function signUpAdmin(ctx: TestContext, email: string, firstName?: string): Promise<TestUser> {
  const admin = await signUp(ctx, { email, ...(firstName === undefined ? {} : { firstName }) });
  const token = `admin-proof-${admin.id}`;
  const now = new Date();
  await ctx.database.db.deleteFrom('email_change_tokens').where('user_id', '=', admin.id).execute();
  await ctx.database.db
    .insertInto('email_change_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: admin.id,
      email: admin.email.toLowerCase(),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + 60_000).toISOString(),
    })
    .execute();
  const proven = await client(ctx.app).raw('POST', api.confirmEmail, { token });
  if (proven.status !== 200) throw new Error(`The admin's proof answered ${proven.status}: ${proven.text}`);
  return admin;
}

/** An admin gives `person` the role. */
export async function giveRole(admin: TestUser, person: TestUser, role: Exclude<Role, 'admin'>): Promise<void> {
  await admin.api.post(api.moderationRoles, roleBodySchema, { user: person.id, role }, roleSetSchema);
}

/**
 * `count` new people who each answered as many questions as a report needs to count toward hiding one (asked by a
 * person of their own); their reports count once the test has moved the clock a day past their registration.
 */
export async function activeReporters(ctx: TestContext, count: number): Promise<TestUser[]> {
  const asker = await signUp(ctx);
  const questions: number[] = [];
  for (let index = 0; index < COUNTING_ANSWERS; index += 1)
    questions.push(await ask(asker, { question: `Warm-up question ${index + 1}?` }));
  const reporters: TestUser[] = [];
  for (let index = 0; index < count; index += 1) {
    const reporter = await signUp(ctx);
    for (const question of questions)
      await reporter.api.post(api.answer(question), answerBodySchema, { choice: 1 }, questionSchema);
    reporters.push(reporter);
  }
  return reporters;
}

/** A question with what finds it: its author, category, tag and a word of its title. */
export interface Findable {
  id: number;
  authorId: number;
  category: number;
  tag: string;
  word: string;
}

/**
 * Every place a question can be listed, as the person of `as` sees it: their feed (they follow its
 * author), its category, its tag, its author's questions (a profile answering 404 shows none),
 * search and trending (it has a vote of the last day). Returns the places that show it.
 */
export async function placesShowing(as: ApiClient, question: Findable): Promise<string[]> {
  const idsAt = async (path: string) => {
    const reply = await as.raw('GET', path);
    if (reply.status === 404) return [];
    if (reply.status !== 200) throw new Error(`GET ${path} answered ${reply.status}: ${reply.text}`);
    return (
      path === api.feed
        ? reply.parse(feedSchema)
        : path === api.trending
          ? reply.parse(trendingSchema)
          : reply.parse(questionPageSchema)
    ).questions.map((shown) => shown.id);
  };
  const places: Record<string, string> = {
    feed: api.feed,
    category: api.category(question.category),
    tag: api.tag(question.tag),
    author: api.userQuestions(question.authorId),
    search: api.search(question.word),
    trending: api.trending,
  };
  const shown: string[] = [];
  for (const [place, path] of Object.entries(places)) if ((await idsAt(path)).includes(question.id)) shown.push(place);
  return shown;
}

export const EVERY_PLACE = ['feed', 'category', 'tag', 'author', 'search', 'trending'];

/** The statuses of the question's share page and preview picture, which anyone may open. */
export async function sharedStatuses(app: FastifyInstance, id: number): Promise<{ page: number; picture: number }> {
  const [page, picture] = await Promise.all([
    app.inject({ url: `/q/${id}`, headers: { accept: 'text/html' } }),
    app.inject({ url: api.questionCard(id) }),
  ]);
  return { page: page.statusCode, picture: picture.statusCode };
}

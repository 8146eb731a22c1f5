import {
  answerBodySchema,
  api,
  blockedSchema,
  connectedSchema,
  likedSchema,
  loginBodySchema,
  OEMBED_PATH,
  type Question,
  questionSchema,
  tokenResponseSchema,
} from '@pollscope/contract';
import { sql } from 'kysely';
import { createECDH, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RawReply } from '../../test/client.js';
import { ask, client, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { apiRoutesOf, routeParts } from '../../test/routes.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

/** A world for one call: an owner with questions, someone else, a user the owner blocked, and a voter. */
interface World {
  owner: TestUser;
  other: TestUser;
  blocked: TestUser;
  voter: TestUser;
  question: number;
  second: number;
  category: number;
  tag: string;
}

type Role = 'anonymous' | 'owner' | 'other' | 'blocked';

interface Access {
  /** Callable without a token: the contract's public calls. */
  public?: true;
  /** The owner acting on their own questions and person. */
  owner: number | number[];
  /** Someone else acting on the owner's questions and person. */
  other: number;
  /** A user the owner blocked, acting on the owner's questions and person. */
  blocked: number;
  body?: (caller: TestUser | null, world: World) => object;
  /** Signs the caller out, so it is called with a session of its own. */
  endsSession?: true;
}

const route = (method: 'GET' | 'POST' | 'DELETE', path: string) => `${method} ${path.replace(/\/$/, '')}`;
let registrations = 0;
const registration = () => ({
  firstName: 'New',
  birthDate: '1990-06-15',
  gender: 'F',
  livingIn: 840,
  email: `access${++registrations}@example.com`,
  password: 'correct horse',
});
const everyone = (status: number) => ({ owner: status, other: status, blocked: status });
/** A browser's push subscription, at a push service that no name leads to (`.invalid`): kept, never posted to. */
function pushSubscription() {
  const device = createECDH('prime256v1');
  device.generateKeys();
  return {
    endpoint: `https://push.example.invalid/send/${randomBytes(8).toString('hex')}`,
    keys: { p256dh: device.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}
const onOwnersQuestion = { owner: 200, other: 200, blocked: 403 };

/** What each kind of caller gets from each call (CONTRACT.md §1 and §3). */
const access: Record<string, Access> = {
  [route('GET', api.health)]: { public: true, ...everyone(200) },
  [route('GET', api.ready)]: { public: true, ...everyone(200) },
  [route('GET', api.countries)]: { public: true, ...everyone(200) },
  [route('GET', api.categories)]: { public: true, ...everyone(200) },
  [route('GET', api.quizes)]: { public: true, ...everyone(200) },
  [route('GET', api.siteStats)]: { public: true, ...everyone(200) },
  [route('GET', `${api.siteStats}chart.svg`)]: { public: true, ...everyone(200) },
  // A shared question's preview picture: public like its page, for anyone with the link.
  [route('GET', api.questionCard(':id'))]: { public: true, ...everyone(200) },
  // oEmbed, for any consumer: called without the page's address it names no question (embed.test.ts).
  [route('GET', OEMBED_PATH)]: { public: true, ...everyone(400) },
  [route('POST', api.login)]: {
    public: true,
    ...everyone(200),
    body: (caller, world) => ({ email: (caller ?? world.voter).email, password: 'correct horse' }),
  },
  [route('POST', api.register)]: { public: true, ...everyone(201), body: registration },

  [route('GET', api.feed)]: everyone(200),
  [route('GET', api.category(':category'))]: everyone(200),
  [route('GET', '/api/polls/tag/:tag/')]: everyone(200),
  [route('GET', api.question(':id'))]: onOwnersQuestion,
  [route('POST', api.create)]: {
    ...everyone(200),
    body: () => ({ type: 'MC', question: 'Tea or coffee?', choices: ['Tea', 'Coffee'], tags: [] }),
  },
  [route('POST', api.answer(':id'))]: { ...onOwnersQuestion, body: () => ({ choice: 1 }) },
  [route('POST', api.like(':id'))]: onOwnersQuestion,
  [route('POST', api.unlike(':id'))]: onOwnersQuestion,
  [route('POST', api.pass(':id'))]: onOwnersQuestion,
  [route('POST', api.unpass(':id'))]: onOwnersQuestion,
  // The vote count for anyone, as the embed shows it; the result only to who may see it (live.test.ts).
  [route('GET', api.live(':id'))]: { public: true, ...onOwnersQuestion },
  [route('GET', api.myStats)]: everyone(200),
  [route('GET', api.userStats(':user'))]: everyone(200),
  [route('GET', api.myQuestions)]: everyone(200),
  [route('GET', api.myAnswered)]: everyone(200),
  [route('GET', api.myLiked)]: everyone(200),
  [route('GET', api.userQuestions(':user'))]: everyone(200),
  [route('GET', api.userAnswered(':user'))]: everyone(200),
  [route('GET', api.userLiked(':user'))]: everyone(200),
  [route('GET', api.breakdown(':id'))]: { owner: 200, other: 403, blocked: 403 },
  [route('POST', api.breakdown(':id'))]: { owner: 200, other: 403, blocked: 403, body: () => ({}) },
  // Relate needs both questions answered; whether owning them is enough is the feature's choice.
  [route('GET', api.relate(':a', ':b'))]: { owner: [200, 403], other: 403, blocked: 403 },
  [route('POST', api.relate(':a', ':b'))]: { owner: [200, 403], other: 403, blocked: 403, body: () => ({ choice: 1 }) },
  [route('GET', api.breakdownCsv(':id'))]: { owner: 200, other: 403, blocked: 403 },
  [route('GET', api.relateCsv(':a', ':b'))]: { owner: [200, 403], other: 403, blocked: 403 },
  [route('GET', api.related(':id'))]: { owner: 200, other: 403, blocked: 403 },

  [route('POST', api.logout)]: { ...everyone(204), endsSession: true },
  [route('GET', api.settings)]: everyone(200),
  [route('POST', api.settings)]: {
    ...everyone(200),
    body: (caller, world) => ({ email: (caller ?? world.owner).email, notification: false }),
  },
  [route('GET', api.account)]: everyone(200),
  [route('POST', api.account)]: {
    ...everyone(200),
    body: () => ({ firstName: 'Renamed', birthDate: '1991-02-03', livingIn: 250 }),
  },
  [route('GET', api.connections)]: everyone(200),
  [route('POST', api.follow(':user'))]: { owner: 400, other: 200, blocked: 403 },
  [route('POST', api.unfollow(':user'))]: { owner: 400, other: 200, blocked: 200 },
  [route('POST', api.ban(':user'))]: { owner: 400, other: 200, blocked: 200 },
  [route('POST', api.unban(':user'))]: { owner: 400, other: 200, blocked: 200 },

  // Without the words to look for (`q`), which these two call for.
  [route('GET', '/api/polls/search/')]: everyone(400),
  [route('GET', '/api/auth/people/')]: everyone(400),
  [route('GET', api.trending)]: everyone(200),
  [route('GET', api.suggestions)]: everyone(200),

  [route('GET', api.notifications)]: everyone(200),
  [route('POST', api.notificationsRead)]: everyone(200),
  [route('GET', api.notificationsLive)]: everyone(200),
  // Called without its token here: nobody is unsubscribed (modules/notifications/mail.test.ts calls it with one).
  [route('GET', '/api/unsubscribe/')]: { public: true, ...everyone(400) },
  [route('POST', '/api/unsubscribe/')]: { public: true, ...everyone(400) },

  // Anyone may ask for a link for any address: the answer is the same, and the link goes to the address.
  [route('POST', api.passwordReset)]: {
    public: true,
    ...everyone(200),
    body: (caller, world) => ({ email: (caller ?? world.voter).email }),
  },
  // A token nobody was mailed (modules/auth/password-reset.test.ts uses mailed ones).
  [route('POST', api.passwordResetConfirm)]: {
    public: true,
    ...everyone(400),
    body: () => ({ token: 'not-a-mailed-token', password: 'a new password' }),
  },
  // A token nobody was mailed (modules/auth/email-change.test.ts uses mailed ones).
  [route('POST', api.confirmEmail)]: { public: true, ...everyone(400), body: () => ({ token: 'not-a-mailed-token' }) },
  [route('GET', api.exportAccount)]: everyone(200),

  // The key a browser subscribes with, the same for everyone; each caller subscribes a device of their own.
  [route('GET', api.pushKey)]: { public: true, ...everyone(200) },
  [route('POST', api.pushSubscriptions)]: { ...everyone(201), body: pushSubscription },
  // 204 whether or not the caller had that device (modules/push tests end their own).
  [route('DELETE', api.pushSubscriptions)]: { ...everyone(204), body: pushSubscription },
  // With a wrong password here: a deletion acts on the caller only (modules/auth/account-deletion.test.ts deletes).
  [route('POST', api.deleteAccount)]: { ...everyone(400), body: () => ({ password: 'wrong horse' }) },

  // Reporting the owner's question: not one's own (400), nor one a block keeps from the caller (403).
  [route('POST', api.reports)]: {
    owner: 400,
    other: 201,
    blocked: 403,
    body: (_caller, world) => ({ target: 'question', id: world.question, reason: 'spam' }),
  },
  [route('GET', api.reports)]: everyone(200),
  // Moderators and admins only (modules/moderation/actions.test.ts acts as them).
  [route('GET', api.moderationReports)]: everyone(403),
  [route('GET', api.moderationOpenCount)]: everyone(403),
  [route('GET', api.moderationLog)]: everyone(403),
  [route('POST', api.moderationActions)]: {
    ...everyone(403),
    body: (_caller, world) => ({ target: 'question', id: world.question, action: 'remove', reason: 'Spam' }),
  },
  [route('POST', api.moderationRoles)]: {
    ...everyone(403),
    body: (_caller, world) => ({ user: world.other.id, role: 'moderator' }),
  },
};

async function buildWorld(): Promise<World> {
  const [owner, other, blocked, voter] = [await signUp(ctx), await signUp(ctx), await signUp(ctx), await signUp(ctx)];
  const category = 3;
  const tag = `access${owner.id}`;
  const question = await ask(owner, { question: 'Owner’s first?', tags: [tag], category });
  const second = await ask(owner, { question: 'Owner’s second?' });
  const votersQuestion = await ask(voter, { question: 'Voter’s question?' });
  await blocked.api.post(api.follow(owner.id), connectedSchema);
  await owner.api.post(api.ban(blocked.id), blockedSchema);
  await other.api.post(api.follow(owner.id), connectedSchema);
  await owner.api.post(api.follow(voter.id), connectedSchema);
  await voter.api.post(api.answer(question), answerBodySchema, { choice: 2 }, questionSchema);
  await voter.api.post(api.like(question), likedSchema);
  await owner.api.post(api.answer(votersQuestion), answerBodySchema, { choice: 1 }, questionSchema);
  await owner.api.post(api.like(votersQuestion), likedSchema);
  return { owner, other, blocked, voter, question, second, category, tag };
}

function fill(path: string, world: World): string {
  const values: Record<string, string | number> = {
    id: world.question,
    a: world.question,
    b: world.second,
    user: world.owner.id,
    category: world.category,
    tag: world.tag,
  };
  return `${path.replace(/:(\w+)/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`No value for the path parameter :${name} of ${path}`);
    return String(values[name]);
  })}/`;
}

/** Everything the owner has done, apart from the counts others' actions move. */
async function footprint(userId: number) {
  const { db } = ctx.database;
  const [user, sessions, questions, votes, likes, passes, follows, blocks] = await Promise.all([
    // Not the state version: someone blocking the owner moves it, as the owner's view of them changed.
    db
      .selectFrom('users')
      .selectAll()
      .select(sql<null>`null`.as('state_version'))
      .where('id', '=', userId)
      .execute(),
    db
      .selectFrom('sessions')
      .select(['token_hash', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('token_hash')
      .execute(),
    db
      .selectFrom('questions')
      .select(['id', 'type', 'title', 'category_id', 'choice_labels', 'range_min', 'range_max'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute(),
    db.selectFrom('votes').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    db.selectFrom('likes').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    db.selectFrom('passes').selectAll().where('user_id', '=', userId).orderBy('question_id').execute(),
    db.selectFrom('follows').selectAll().where('follower_id', '=', userId).orderBy('followee_id').execute(),
    db.selectFrom('blocks').selectAll().where('blocker_id', '=', userId).orderBy('blocked_id').execute(),
  ]);
  return { user, sessions, questions, votes, likes, passes, follows, blocks };
}

/** Every question anywhere in a response, each checked against the contract. */
function questionsIn(value: unknown, found: Question[] = []): Question[] {
  if (Array.isArray(value)) for (const item of value) questionsIn(item, found);
  else if (value && typeof value === 'object') {
    if ('qid' in value && 'result' in value && 'answer' in value) found.push(questionSchema.parse(value));
    for (const item of Object.values(value)) questionsIn(item, found);
  }
  return found;
}

/** The body as JSON when it is JSON, else as text (a download, a chart, nothing). */
function bodyOf(reply: RawReply): unknown {
  return reply.text && String(reply.headers['content-type']).includes('json') ? reply.json() : reply.text;
}

/** Nobody sees a result before voting, unless they asked the question, nor anyone's vote but their own. */
async function expectNoPeeking(reply: RawReply, caller: TestUser | null): Promise<void> {
  for (const question of questionsIn(bodyOf(reply))) {
    const vote = caller
      ? await ctx.database.db
          .selectFrom('votes')
          .select('choice')
          .where('question_id', '=', question.id)
          .where('user_id', '=', caller.id)
          .executeTakeFirst()
      : undefined;
    expect(question.answer, `answer on question ${question.id}`).toEqual(vote ? { choice: vote.choice } : null);
    if (question.result !== null)
      expect(vote !== undefined || question.user === caller?.id, `result of question ${question.id}`).toBe(true);
  }
}

async function call(key: string, rule: Access, role: Role, world: World): Promise<RawReply> {
  const { method, path } = routeParts(key);
  let caller = role === 'anonymous' ? null : world[role];
  if (caller && rule.endsSession) {
    const { token } = await client(ctx.app).post(
      api.login,
      loginBodySchema,
      { email: caller.email, password: 'correct horse' },
      tokenResponseSchema,
    );
    caller = { ...caller, token, api: client(ctx.app, token) };
  }
  const as = caller ? caller.api : client(ctx.app);
  const url = fill(path, world);
  const reply = await as.raw(method, url, method === 'GET' ? undefined : rule.body?.(caller, world));

  const expected = role === 'anonymous' ? (rule.public ? rule.owner : 401) : rule[role];
  expect([expected].flat(), `${role}: ${key} answered ${reply.status} ${reply.text}`).toContain(reply.status);
  if (reply.status >= 400) reply.error();
  await expectNoPeeking(reply, caller);
  if (role !== 'owner') {
    expect(reply.text).not.toContain(world.owner.email);
    expect(reply.text).not.toContain(world.owner.token);
  }
  if (role === 'blocked') {
    const owners = questionsIn(bodyOf(reply)).filter((question) => question.user === world.owner.id);
    expect(owners, `${key} shows the blocker's questions`).toEqual([]);
  }
  return reply;
}

describe('access to every call', () => {
  const routes = () => apiRoutesOf(ctx.app);

  it('has an access rule for every route of the app', () => {
    const unruled = routes().filter((key) => !(key in access));
    expect(unruled, 'add these calls to the access table').toEqual([]);
    expect(routes().length).toBeGreaterThan(30);
  });

  it('gives each kind of caller only what the contract allows', async () => {
    for (const key of routes().filter((key) => key in access)) {
      const rule = access[key];
      const world = await buildWorld();
      const before = await footprint(world.owner.id);
      for (const role of ['anonymous', 'blocked', 'other'] as const) await call(key, rule, role, world);
      // Nothing anyone else did acted for the owner.
      expect(await footprint(world.owner.id), key).toEqual(before);
      await call(key, rule, 'owner', world);
    }
    // A world of its own for each of the app's routes: its length grows with them, 8 s alone and past 30 s beside a
    // busy machine's other tests.
  }, 120_000);

  it('serves the API documentation to everyone', async () => {
    const reply = await client(ctx.app).raw('GET', '/api/docs/json');
    expect(reply.status).toBe(200);
    expect(reply.parse(z.object({ info: z.object({ title: z.string() }) })).info.title).toBe('Pollscope API');
  });

  it('shows nobody the result of a question before they answer it', async () => {
    const world = await buildWorld();
    const before = await world.other.api.get(api.question(world.question), questionSchema);
    expect(before).toMatchObject({ result: null, answer: null });
    const answered = await world.other.api.post(
      api.answer(world.question),
      answerBodySchema,
      { choice: 1 },
      questionSchema,
    );
    expect(answered.result?.count).toBe(2);
    expect(answered.answer).toEqual({ choice: 1 });
  });

  it('never shows the blocker’s questions to the blocked user, in any list or as the question of the day', async () => {
    const world = await buildWorld();
    const lists = [
      api.feed,
      api.category(world.category),
      api.tag(world.tag),
      api.userQuestions(world.owner.id),
      api.userLiked(world.voter.id),
      api.userAnswered(world.voter.id),
    ];
    for (const list of lists) {
      const reply = await world.blocked.api.raw('GET', list);
      expect(reply.status).toBe(200);
      expect(
        questionsIn(reply.json()).filter((question) => question.user === world.owner.id),
        list,
      ).toEqual([]);
    }
    // Everyone else does see them.
    const seen = await world.other.api.raw('GET', api.userLiked(world.voter.id));
    expect(questionsIn(seen.json()).map((question) => question.id)).toContain(world.question);
  });
});

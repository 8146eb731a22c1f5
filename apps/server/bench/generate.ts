import { sql } from 'kysely';
import { createHash } from 'node:crypto';
import { loadConfig } from '../src/config.js';
import { describeMismatch, findTallyMismatches } from '../src/db/check.js';
import { migrateToLatest, openDatabase, type Db } from '../src/db/index.js';
import { searchDocumentOf, searchName } from '../src/lib/search-text.js';
import { migrations } from '../src/db/migrations/index.js';
import { CATEGORY_NAMES, seedReferenceData } from '../src/seed/reference.js';
import { hashPassword } from '../src/modules/auth/passwords.js';
import { hashToken } from '../src/modules/auth/sessions.js';
import { activityByDay, utcDay } from '../src/modules/site/activity.js';
import { prepareEmptyDatabase, readMarker, writeMarker } from './bench-database.js';
import { openBulkWriter, type BulkWriter } from './bulk-writer.js';
import { choiceModel, drawChoice, drawPairSecond } from './choice-model.js';
import {
  firstNameOf,
  planCommunity,
  voterAt,
  type CommunityParameters,
  type CommunityPlan,
  type CommunityRoles,
  type PlannedQuestion,
} from './community-plan.js';
import { Progress } from './progress.js';
import { randomStream } from './random.js';

/** Raised when the generator changes what it writes, so that kept databases are made again. */
const GENERATOR_VERSION = 3;

/** Every generated person's password. */
export const BENCH_PASSWORD = 'pollscope-bench';

const DAY_MS = 24 * 3600 * 1000;

/** A generated community as the benchmark uses it: its ids and who plays which part. */
export interface BenchCommunity {
  key: string;
  parameters: CommunityParameters;
  members: number;
  accounts: number;
  /** Account i is user firstUserId + i, question j is firstQuestionId + j. */
  firstUserId: number;
  firstQuestionId: number;
  roles: CommunityRoles;
  /** When it was generated (ISO). */
  generatedAt: string;
  generationSeconds: number;
}

/** The name of a community: the same parameters, generator and schema give the same key. */
export function communityKey(parameters: CommunityParameters): string {
  const schema = Object.keys(migrations('sqlite'));
  const hash = createHash('sha256').update(JSON.stringify({ parameters, schema, GENERATOR_VERSION })).digest('hex');
  return hash.slice(0, 16);
}

/**
 * A signed-in member's token: derived from the community's key, so a kept database's tokens are known without storing
 * them.
 */
export function sessionTokenFor(key: string, userId: number): string {
  return createHash('sha256').update(`pollscope-bench:${key}:${userId}`).digest('base64url');
}

/** The community kept at `url` when it was made with these parameters, else null. */
export async function storedCommunity(url: string, parameters: CommunityParameters): Promise<BenchCommunity | null> {
  const marker = await readMarker(url);
  return marker?.key === communityKey(parameters) ? (JSON.parse(marker.description) as BenchCommunity) : null;
}

type DayCounts = Map<string, { answers: number; questions: number; users: number; likes: number }>;

function countOn(days: DayCounts, time: number, kind: 'answers' | 'questions' | 'users' | 'likes'): void {
  const day = utcDay(new Date(time));
  let counts = days.get(day);
  if (!counts) days.set(day, (counts = { answers: 0, questions: 0, users: 0, likes: 0 }));
  counts[kind] += 1;
}

const iso = (time: number) => new Date(time).toISOString();

/** The per-person counts the users table keeps, from the plan alone. */
function personCounts(plan: CommunityPlan): { answers: Int32Array; likes: Int32Array; asked: Int32Array } {
  const counts = {
    answers: new Int32Array(plan.accounts),
    likes: new Int32Array(plan.accounts),
    asked: new Int32Array(plan.accounts),
  };
  for (const question of plan.questions) {
    counts.asked[question.author] += 1;
    for (let i = 0; i < question.voters.count; i += 1) {
      const account = voterAt(question, i);
      counts.answers[account] += 1;
      if (i < question.likes) counts.likes[account] += 1;
    }
  }
  return counts;
}

interface Context {
  plan: CommunityPlan;
  /** Where progress is shown; null for nowhere. */
  log: NodeJS.WriteStream | null;
  writer: BulkWriter;
  userId: (account: number) => number;
  questionId: (index: number) => number;
  days: DayCounts;
}

async function writePeople(context: Context, key: string, passwordHash: string): Promise<void> {
  const { plan, writer, userId, days } = context;
  const { people, members, roles, questions } = plan;
  const counts = personCounts(plan);
  const random = randomStream(plan.parameters.seed, 'accounts');
  const bigPublished = questions[roles.bigQuestion].publishedAt;
  const progress = new Progress('people', plan.accounts, context.log);
  for (let account = 0; account < plan.accounts; account += 1) {
    const isMember = account < members;
    // Members joined before the first question; occasional voters shortly before the big question.
    const created = isMember
      ? plan.now - 400 * DAY_MS + random.next() * 30 * DAY_MS
      : bigPublished - random.next() * 3600_000;
    const month = String(1 + random.below(12)).padStart(2, '0');
    const day = String(1 + random.below(28)).padStart(2, '0');
    const favoriteCategory = random.next() < 0.4 ? 1 + random.below(CATEGORY_NAMES.length) : null;
    await writer.add('users', [
      userId(account),
      isMember ? `member${account}@bench.pollscope.invalid` : `voter${account}@bench.pollscope.invalid`,
      passwordHash,
      firstNameOf(account),
      searchName(firstNameOf(account)),
      `${people.birthYear[account]}-${month}-${day}`,
      people.birthYear[account],
      people.gender[account] === 0 ? 'F' : 'M',
      people.country[account],
      favoriteCategory,
      counts.asked[account],
      counts.answers[account],
      counts.likes[account],
      iso(created),
    ]);
    countOn(days, created, 'users');
    progress.advance();
  }
  progress.finish();
  const now = iso(plan.now);
  for (let account = 0; account < roles.sessionUsers; account += 1) {
    await writer.add('sessions', [hashToken(sessionTokenFor(key, userId(account))), userId(account), now, now]);
  }
}

async function writeQuestions(context: Context): Promise<void> {
  const { plan, writer, userId, questionId, days } = context;
  for (const question of plan.questions) {
    const id = questionId(question.index);
    const choiceLabels = question.type === 'MC' ? JSON.stringify(question.labels) : null;
    await writer.add('questions', [
      id,
      userId(question.author),
      question.type,
      question.title,
      question.category,
      choiceLabels,
      question.type === 'MC' ? null : question.min,
      question.type === 'MC' ? null : question.max,
      iso(question.publishedAt),
      question.voters.count,
      question.likes,
    ]);
    const tags = question.tag ? [question.tag] : [];
    for (const tag of tags) await writer.add('question_tags', [id, tag]);
    const document = searchDocumentOf({ id, title: question.title, choice_labels: choiceLabels }, tags);
    await writer.add('question_search_documents', [
      document.question_id,
      document.title,
      document.tags,
      document.choices,
    ]);
    countOn(days, question.publishedAt, 'questions');
  }
}

/** Adds one to a count in a map, creating it at 1. */
function bump<K>(counts: Map<K, number>, key: K): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** One question's votes and likes, and every tally that counts them, as the server keeps them. */
async function writeVotesOf(
  context: Context,
  question: PlannedQuestion,
  pairFirstChoices: Float64Array,
  progress: Progress,
): Promise<void> {
  const { plan, writer, userId, days } = context;
  const id = context.questionId(question.index);
  const random = randomStream(plan.parameters.seed, `votes:${question.index}`);
  const model = choiceModel(plan.parameters.seed, question);
  const perChoice = new Map<number, number>();
  const segments = new Map<string, number>();
  for (let i = 0; i < question.voters.count; i += 1) {
    const account = voterAt(question, i);
    const group = plan.people.group[account];
    const choice =
      question.role === 'pairSecond'
        ? drawPairSecond(model, group, pairFirstChoices[i], random)
        : drawChoice(model, group, random);
    if (question.role === 'pairFirst') pairFirstChoices[i] = choice;
    const time = question.publishedAt + (plan.now - question.publishedAt) * random.next() ** 2;
    const gender = plan.people.gender[account] === 0 ? 'F' : 'M';
    const birthYear = plan.people.birthYear[account];
    const country = plan.people.country[account];
    await writer.add('votes', [id, userId(account), choice, iso(time), i + 1, gender, birthYear, country]);
    countOn(days, time, 'answers');
    if (i < question.likes) {
      const liked = Math.min(plan.now, time + 60_000);
      await writer.add('likes', [id, userId(account), iso(liked)]);
      countOn(days, liked, 'likes');
    }
    bump(perChoice, choice);
    bump(segments, `${country}|${gender}|${birthYear}|${choice}`);
    progress.advance();
  }
  for (const [choice, count] of perChoice) await writer.add('vote_tallies', [id, choice, count]);
  for (const [segment, count] of segments) {
    const [country, gender, birthYear, choice] = segment.split('|');
    await writer.add('vote_segments', [id, Number(country), gender, Number(birthYear), Number(choice), count]);
  }
}

async function writeVotes(context: Context): Promise<void> {
  const { plan } = context;
  const progress = new Progress('votes', plan.parameters.votes, context.log);
  const pairFirstChoices = new Float64Array(plan.roles.pairVoters);
  for (const question of plan.questions) await writeVotesOf(context, question, pairFirstChoices, progress);
  progress.finish();
}

/**
 * Who follows, blocks and hides whom: each member follows a few people who ask questions; a
 * few members (none of those the benchmark signs in as) block someone or hide a question.
 */
async function writeConnections(context: Context): Promise<void> {
  const { plan, writer, userId, questionId } = context;
  const { members, questions, roles } = plan;
  const random = randomStream(plan.parameters.seed, 'connections');
  const progress = new Progress('follows', members, context.log);
  for (let member = 0; member < members; member += 1) {
    const followees = new Set<number>();
    const wanted = 3 + random.below(18);
    for (let attempt = 0; attempt < wanted; attempt += 1) {
      const author = questions[random.below(questions.length)].author;
      if (author !== member) followees.add(author);
    }
    for (const followee of followees)
      await writer.add('follows', [
        userId(member),
        userId(followee),
        iso(plan.now - 300 * DAY_MS + random.next() * 290 * DAY_MS),
      ]);
    progress.advance();
  }
  progress.finish();
  const others = members - roles.sessionUsers;
  if (others < 2) return;
  const otherMember = () => roles.sessionUsers + random.below(others);
  const blocks = new Set<string>();
  for (let count = 0; count < Math.floor(members * 0.002); count += 1) {
    const [blocker, blocked] = [otherMember(), otherMember()];
    if (blocker === blocked || blocks.has(`${blocker}:${blocked}`)) continue;
    blocks.add(`${blocker}:${blocked}`);
    await writer.add('blocks', [userId(blocker), userId(blocked), iso(plan.now - random.next() * 100 * DAY_MS)]);
  }
  const askedBefore = roles.bigQuestion;
  for (let count = 0; count < Math.floor(members * 0.01) && askedBefore > 0; count += 1) {
    const passer = otherMember();
    const passed = new Set(Array.from({ length: 1 + random.below(3) }, () => random.below(askedBefore)));
    for (const index of passed) await writer.add('passes', [userId(passer), questionId(index)]);
  }
}

/** Today's and past days' activity, added to what the reference data already counted, on each day's one row. */
async function writeActivity(db: Db, context: Context): Promise<void> {
  for (const [day, counted] of await activityByDay(db)) {
    const counts = context.days.get(day) ?? { answers: 0, questions: 0, users: 0, likes: 0 };
    context.days.set(day, {
      answers: counts.answers + counted.answers,
      questions: counts.questions + counted.questions,
      users: counts.users + counted.users,
      likes: counts.likes + counted.likes,
    });
  }
  await db.deleteFrom('daily_activity').execute();
  await db.deleteFrom('daily_activity_shards').execute();
  for (const [day, counts] of [...context.days].sort())
    await context.writer.add('daily_activity', [day, counts.answers, counts.questions, counts.users, counts.likes]);
}

/** The ids the reference data left free: generated users and questions follow them. */
async function firstFreeIds(db: Db): Promise<{ user: number; question: number }> {
  const users = await db
    .selectFrom('users')
    .select((eb) => eb.fn.max('id').as('last'))
    .executeTakeFirst();
  const questions = await db
    .selectFrom('questions')
    .select((eb) => eb.fn.max('id').as('last'))
    .executeTakeFirst();
  return { user: Number(users?.last ?? 0) + 1, question: Number(questions?.last ?? 0) + 1 };
}

/**
 * Writes a new community into the database at `url` (created when missing, emptied when the
 * benchmark made it; any other database is refused): the real schema through the migrations,
 * the reference data, then every row and tally in large batches. Fails when the tally check
 * finds a count that differs from its rows.
 */
export async function generateCommunity(
  url: string,
  parameters: CommunityParameters,
  { now = Date.now(), log = process.stderr }: { now?: number; log?: NodeJS.WriteStream | null } = {},
): Promise<BenchCommunity> {
  const started = Date.now();
  await prepareEmptyDatabase(url);
  const plan = planCommunity(parameters, now);
  const key = communityKey(parameters);
  const database = openDatabase(url);
  try {
    await migrateToLatest(database);
    await seedReferenceData(database.db);
    const first = await firstFreeIds(database.db);
    // One hash for everyone: hashing a million passwords would take hours and prove nothing.
    const passwordHash = await hashPassword(BENCH_PASSWORD, loadConfig().passwordHashCost);
    const writer = await openBulkWriter(url);
    const context: Context = {
      plan,
      log,
      writer,
      userId: (account) => first.user + account,
      questionId: (index) => first.question + index,
      days: new Map(),
    };
    try {
      // Each phase's rows are written before the next phase's refer to them.
      for (const phase of [
        () => writePeople(context, key, passwordHash),
        () => writeQuestions(context),
        () => writeVotes(context),
        () => writeConnections(context),
      ]) {
        await phase();
        await writer.flush();
      }
      await writeActivity(database.db, context);
      await writer.flush();
    } finally {
      await writer.close();
    }
    if (database.dialect === 'postgres') {
      // Ids were given here: the sequences go on after them. Then fresh planner statistics, as
      // autovacuum would gather soon after such a load.
      for (const table of ['users', 'questions'] as const) {
        await sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.table(table)}))`.execute(
          database.db,
        );
      }
      await sql`vacuum analyze`.execute(database.db);
    }
    log?.write('checking every tally against its rows…\n');
    const mismatches = await findTallyMismatches(database.db);
    if (mismatches.length > 0)
      throw new Error(
        `the generated tallies differ from their rows:\n${mismatches.slice(0, 20).map(describeMismatch).join('\n')}`,
      );
    const community: BenchCommunity = {
      key,
      parameters,
      members: plan.members,
      accounts: plan.accounts,
      firstUserId: first.user,
      firstQuestionId: first.question,
      roles: plan.roles,
      generatedAt: iso(now),
      generationSeconds: Math.round((Date.now() - started) / 100) / 10,
    };
    await writeMarker(database.db, key, JSON.stringify(community));
    return community;
  } finally {
    await database.close();
  }
}

import { api, embedPath, type BreakdownFilterBody } from '@pollscope/contract';
import { openDatabase } from '../src/db/index.js';
import { CATEGORY_NAMES } from '../src/seed/reference.js';
import { PAIR_LABELS, TAGS, TOPICS } from './community-plan.js';
import { sessionTokenFor, type BenchCommunity } from './generate.js';
import type { BenchRequest } from './measure.js';
import { questionInfo, type QuestionInfo } from './mixed-load.js';

export const CALL_NAMES = [
  'ceiling',
  'embed',
  'feed',
  'category',
  'tag',
  'asked',
  'trending',
  'search',
  'answer',
  'like',
  'breakdown',
  'relate',
] as const;
export type CallName = (typeof CALL_NAMES)[number];

/**
 * Throughput as a share of the ceiling measured just before (machines differ by 2×); latency in ms where a person waits
 * for it.
 */
export type Target = { kind: 'p99'; ms: number } | { kind: 'shareOfCeiling'; atLeast: number };

export function describeTarget(target: Target): string {
  if (target.kind === 'p99') return `p99 < ${target.ms} ms`;
  return `≥ ${target.atLeast * 100}% of the ceiling`;
}

/** Whether a measurement meets the target; null when it cannot tell (no ceiling measured). */
export function targetMet(
  target: Target,
  measured: { requestsPerSecond: number; p99: number },
  ceilingRequestsPerSecond: number | null,
): boolean | null {
  if (target.kind === 'p99') return measured.p99 < target.ms;
  return ceilingRequestsPerSecond ? measured.requestsPerSecond >= target.atLeast * ceilingRequestsPerSecond : null;
}

export interface CallSpec {
  name: CallName;
  label: string;
  next(): BenchRequest;
  target?: Target;
}

/** The lists people browse (a category, a tag, a member's questions) against the ceiling. */
const LIST_TARGET: Target = { kind: 'shareOfCeiling', atLeast: 0.25 };

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];

/**
 * What people search the community for, as they type it: its topics whole and begun, its tags,
 * its choices, and words of both together. "agree" is in the choices of 3 questions in 10.
 */
const SEARCHES = [
  ...TOPICS,
  ...TOPICS.map((topic) => topic.slice(0, Math.max(3, topic.indexOf(' ') + 3))),
  ...TAGS.slice(0, 8),
  'dogs',
  'countryside',
  'summer',
  'agree',
  'coffee agree',
  'cycling morn',
];
const range = (from: number, count: number) => Array.from({ length: count }, (_, index) => from + index);

/** Breakdown filters a researcher would try: genders, age ranges and countries, alone and together. */
const BREAKDOWN_FILTERS: BreakdownFilterBody[] = [undefined, 'F', 'M'].flatMap((gender) =>
  [undefined, 840, 250, 356].flatMap((country) =>
    [
      [0, 999],
      [18, 24],
      [25, 44],
      [45, 64],
      [65, 999],
      [30, 50],
    ].map(
      ([min_age, max_age]) =>
        ({ min_age, max_age, ...(gender ? { gender } : {}), ...(country ? { country } : {}) }) as BreakdownFilterBody,
    ),
  ),
);

/**
 * (person, question) pairs that have no vote (or like) yet: person i % n with question i % m,
 * which visits every pair once as n and m share no factor. Pairs used by an earlier run on a
 * kept database are skipped.
 */
class FreshPairs {
  private index = 0;

  constructor(
    private readonly userIds: number[],
    private readonly questionIds: number[],
    private readonly used: Set<string>,
  ) {}

  next(): { userId: number; questionId: number } {
    const total = this.userIds.length * this.questionIds.length;
    for (;;) {
      // Past the last fresh pair the calls repeat old pairs, and their refusals show in the report.
      const i = this.index++ % total;
      const pair = {
        userId: this.userIds[i % this.userIds.length],
        questionId: this.questionIds[i % this.questionIds.length],
      };
      if (!this.used.has(`${pair.userId}:${pair.questionId}`) || this.index > 2 * total) return pair;
    }
  }
}

async function usedPairs(databaseUrl: string, table: 'votes' | 'likes', questionIds: number[]): Promise<Set<string>> {
  const database = openDatabase(databaseUrl, { poolSize: 1 });
  try {
    const rows = await database.db
      .selectFrom(table)
      .select(['user_id', 'question_id'])
      .where('question_id', 'in', questionIds)
      .execute();
    return new Set(rows.map((row) => `${row.user_id}:${row.question_id}`));
  } finally {
    await database.close();
  }
}

/** The ids of the people and questions the calls use, from the community's roles. */
export function communityIds(community: BenchCommunity) {
  const { roles, firstUserId, firstQuestionId } = community;
  const userIds = (count: number) => range(firstUserId, count);
  return {
    signedIn: userIds(roles.sessionUsers),
    bigQuestionVoters: userIds(Math.min(roles.sessionUsers, roles.bigQuestionVoters)),
    pairVoters: userIds(Math.min(roles.sessionUsers, roles.pairVoters)),
    mixedVoters: userIds(roles.mixedVoters),
    /** The mixed run's voters and as many more: the pairs of the second half are fresh for the overload run. */
    overloadVoters: userIds(Math.min(roles.sessionUsers, 2 * roles.mixedVoters)),
    bigQuestion: firstQuestionId + roles.bigQuestion,
    pairQuestions: roles.pairQuestions.map((index) => firstQuestionId + index) as [number, number],
    answerTargets: roles.answerTargets.map((index) => firstQuestionId + index),
    mixedQuestions: roles.mixedQuestions.map((index) => firstQuestionId + index),
    prolificAuthors: roles.prolificAuthors.map((account) => firstUserId + account),
  };
}

/** Every measured call on the community, with its target where the issue sets one. */
export async function callSpecs(community: BenchCommunity, baseUrl: string, databaseUrl: string): Promise<CallSpec[]> {
  const ids = communityIds(community);
  const token = (userId: number) => sessionTokenFor(community.key, userId);
  const signedIn = ids.signedIn.map(token);
  const answerTargets = new Map<number, QuestionInfo>();
  for (const id of ids.answerTargets) answerTargets.set(id, await questionInfo(baseUrl, signedIn[0], id));
  const votes = new FreshPairs(
    ids.signedIn,
    ids.answerTargets,
    await usedPairs(databaseUrl, 'votes', ids.answerTargets),
  );
  const likes = new FreshPairs(
    ids.signedIn,
    ids.answerTargets,
    await usedPairs(databaseUrl, 'likes', ids.answerTargets),
  );
  const [first, second] = ids.pairQuestions;

  return [
    { name: 'ceiling', label: `GET ${api.health}`, next: () => ({ method: 'GET', path: api.health, token: null }) },
    {
      // The page other sites frame, as a visitor opens it: nothing cached in front of the server.
      name: 'embed',
      label: `GET ${embedPath('{id}')}`,
      next: () => ({ method: 'GET', path: embedPath(pick(ids.answerTargets)), token: null }),
      target: { kind: 'shareOfCeiling', atLeast: 0.4 },
    },
    {
      name: 'feed',
      label: `GET ${api.feed}`,
      next: () => ({ method: 'GET', path: api.feed, token: pick(signedIn) }),
      target: { kind: 'shareOfCeiling', atLeast: 0.4 },
    },
    {
      name: 'category',
      label: `GET ${api.category('{id}')}`,
      next: () => ({
        method: 'GET',
        path: api.category(1 + Math.floor(Math.random() * CATEGORY_NAMES.length)),
        token: pick(signedIn),
      }),
      target: LIST_TARGET,
    },
    {
      name: 'tag',
      label: 'GET /api/polls/tag/{tag}/',
      next: () => ({ method: 'GET', path: api.tag(pick(TAGS)), token: pick(signedIn) }),
      target: LIST_TARGET,
    },
    {
      name: 'asked',
      label: `GET ${api.userQuestions('{user}')}`,
      next: () => ({ method: 'GET', path: api.userQuestions(pick(ids.prolificAuthors)), token: pick(signedIn) }),
      target: LIST_TARGET,
    },
    {
      name: 'trending',
      label: `GET ${api.trending}`,
      next: () => ({ method: 'GET', path: api.trending, token: pick(signedIn) }),
      target: LIST_TARGET,
    },
    {
      name: 'search',
      label: 'GET /api/polls/search/?q={words}',
      next: () => ({ method: 'GET', path: api.search(pick(SEARCHES)), token: pick(signedIn) }),
      target: { kind: 'p99', ms: 20 },
    },
    {
      name: 'answer',
      label: `POST ${api.answer('{id}')}`,
      next: () => {
        const { userId, questionId } = votes.next();
        return {
          method: 'POST',
          path: api.answer(questionId),
          token: token(userId),
          body: { choice: answerTargets.get(questionId)!.choice() },
        };
      },
      // Was 3,000 votes/s, made at 10% to 23% of ceilings of 13,000 to 47,000 (docs/performance.md).
      target: { kind: 'shareOfCeiling', atLeast: 0.15 },
    },
    {
      name: 'like',
      label: `POST ${api.like('{id}')}`,
      next: () => {
        const { userId, questionId } = likes.next();
        return { method: 'POST', path: api.like(questionId), token: token(userId) };
      },
    },
    {
      name: 'breakdown',
      label: `POST ${api.breakdown('{id}')}`,
      next: () => ({
        method: 'POST',
        path: api.breakdown(ids.bigQuestion),
        token: token(pick(ids.bigQuestionVoters)),
        body: pick(BREAKDOWN_FILTERS),
      }),
      target: { kind: 'p99', ms: 10 },
    },
    {
      name: 'relate',
      label: `POST ${api.relate('{a}', '{b}')}`,
      next: () => {
        // Either way round: rows by the second question's choice.
        const [a, b, choices] =
          Math.random() < 0.5 ? [first, second, PAIR_LABELS.second.length] : [second, first, PAIR_LABELS.first.length];
        return {
          method: 'POST',
          path: api.relate(a, b),
          token: token(pick(ids.pairVoters)),
          body: { choice: 1 + Math.floor(Math.random() * choices) },
        };
      },
      target: { kind: 'p99', ms: 50 },
    },
  ];
}

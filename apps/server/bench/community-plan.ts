/**
 * The synthetic community of the benchmark, drawn from a seed without touching a database: who
 * the people are, what they ask, who votes on what and how. Answers follow the voters' gender,
 * age and region, so that a breakdown has structure, and the two "pair" questions are answered
 * alike by the same people, so that relate finds an association.
 */
import { CATEGORY_NAMES } from '../src/seed/reference.js';
import { cumulativeOf, greatestCommonDivisor, randomStream, type Random } from './random.js';

export interface CommunityParameters {
  seed: number;
  /** Members: people who ask, follow, like and vote across the community. */
  users: number;
  questions: number;
  /** Every vote, the big question's and the pair questions' included. */
  votes: number;
  /**
   * Votes on the one very popular question. Past `users`, occasional voters make up the rest:
   * people who answer only the popular questions (this one, and the pair).
   */
  bigQuestionVotes: number;
  /** Voters of each of the two associated questions: the same people answer both. */
  pairQuestionVotes: number;
}

export const DEFAULT_PARAMETERS: CommunityParameters = {
  seed: 1,
  users: 100_000,
  questions: 20_000,
  votes: 2_000_000,
  bigQuestionVotes: 1_000_000,
  pairQuestionVotes: 200_000,
};

/** Members the benchmark signs in as (sessions made by the generator). */
const SESSION_USERS = 5_000;
/** New questions nobody has answered or liked yet, for the answering and like runs. */
const ANSWER_TARGETS = 199;
/** New questions only the mixed run's people answer, so it can count every vote. */
const MIXED_QUESTIONS = 150;
/** People of the mixed run. */
const MIXED_VOTERS = 500;

export type QuestionRole = 'other' | 'big' | 'pairFirst' | 'pairSecond' | 'mixed' | 'answerTarget';

export interface PlannedQuestion {
  index: number;
  role: QuestionRole;
  type: 'MC' | 'RS' | 'N';
  title: string;
  /** MC choice texts; empty for RS and N. */
  labels: string[];
  /** The values a vote may take: MC keys 1..n, ratings 1..10, or a number range. */
  min: number;
  max: number;
  author: number;
  category: number | null;
  tag: string | null;
  publishedAt: number;
  /**
   * Voters are `count` of the first `pool` accounts (members come first, occasional voters
   * after them), visited in a stride permutation: distinct by construction.
   */
  voters: { count: number; pool: number; offset: number; stride: number };
  /** The first `likes` voters like the question too. */
  likes: number;
}

export interface Demographics {
  /** 0: F, 1: M. */
  gender: Uint8Array;
  birthYear: Int16Array;
  country: Uint16Array;
  /** Gender, age group and region together: the index of a choice model's row. */
  group: Uint8Array;
}

/** Where each kind of load finds its people and questions, as account and question indexes. */
export interface CommunityRoles {
  sessionUsers: number;
  /** Accounts 0..n-1 answered the big question. */
  bigQuestionVoters: number;
  /** Accounts 0..n-1 answered both pair questions. */
  pairVoters: number;
  mixedVoters: number;
  bigQuestion: number;
  pairQuestions: [number, number];
  answerTargets: number[];
  mixedQuestions: number[];
  /** Members who asked the most questions, for a user's list of asked questions. */
  prolificAuthors: number[];
}

export interface CommunityPlan {
  parameters: CommunityParameters;
  now: number;
  members: number;
  /** Members, then the occasional voters. */
  accounts: number;
  people: Demographics;
  questions: PlannedQuestion[];
  roles: CommunityRoles;
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * Countries by ISO numeric code, their share of people and their region (0 North America, 1 Europe, 2 Asia, 3
 * elsewhere).
 */
const COUNTRIES: [code: number, weight: number, region: number][] = [
  [840, 30, 0],
  [124, 4, 0],
  [484, 3, 0],
  [826, 8, 1],
  [276, 6, 1],
  [250, 5, 1],
  [724, 3, 1],
  [380, 3, 1],
  [528, 2, 1],
  [752, 2, 1],
  [616, 2, 1],
  [372, 1, 1],
  [620, 1, 1],
  [756, 1, 1],
  [578, 0.6, 1],
  [352, 0.05, 1],
  [442, 0.05, 1],
  [356, 8, 2],
  [392, 4, 2],
  [410, 1.5, 2],
  [608, 2, 2],
  [360, 1.5, 2],
  [792, 1, 2],
  [704, 1, 2],
  [76, 5, 3],
  [32, 1.5, 3],
  [566, 2, 3],
  [710, 1.5, 3],
  [36, 3, 3],
  [818, 1, 3],
  [404, 0.5, 3],
  [554, 0.5, 3],
];
export const REGIONS = 4;
export const AGE_GROUPS = 6;
export const GROUPS = 2 * AGE_GROUPS * REGIONS;

const FIRST_NAMES = [
  'Ada',
  'Ben',
  'Chloe',
  'Dev',
  'Elena',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Kemi',
  'Liam',
  'Maya',
  'Noah',
  'Olga',
  'Pablo',
  'Quinn',
  'Rosa',
  'Sami',
  'Tara',
  'Umar',
  'Vera',
  'Wen',
  'Yara',
  'Zoe',
];
/** What the generated questions are about, one each (the benchmark searches for them). */
export const TOPICS = [
  'remote work',
  'city cycling',
  'school uniforms',
  'electric cars',
  'four-day weeks',
  'social media',
  'public transport',
  'home cooking',
  'space travel',
  'board games',
  'online dating',
  'coffee',
  'vinyl records',
  'camping',
  'smart homes',
  'street food',
  'museums',
  'podcasts',
  'tiny houses',
  'marathons',
];
/** Tags of the generated questions, one at most each. */
export const TAGS = [
  'daily',
  'fun',
  'serious',
  'habits',
  'future',
  'money',
  'family',
  'work',
  'travel',
  'food',
  'tech',
  'sport',
  'health',
  'music',
  'books',
  'cities',
  'nature',
  'school',
  'games',
  'style',
];
const LABEL_SETS: string[][] = [
  ['Yes', 'No'],
  ['Agree', 'Disagree'],
  ['Cats', 'Dogs'],
  ['Morning', 'Evening'],
  ['Agree', 'Neutral', 'Disagree'],
  ['Less', 'The same', 'More'],
  ['City', 'Suburbs', 'Countryside'],
  ['Never', 'Rarely', 'Sometimes', 'Often'],
  ['Spring', 'Summer', 'Autumn', 'Winter'],
  ['Strongly agree', 'Agree', 'Disagree', 'Strongly disagree'],
];
/** The two associated questions' choices: how often one exercises, and how one rates one's health. */
export const PAIR_LABELS = { first: ['Never', 'Rarely', 'Sometimes', 'Often'], second: ['Good', 'Fair', 'Poor'] };
const NUMBER_RANGES: [number, number][] = [
  [0, 10],
  [0, 20],
  [1, 7],
  [0, 50],
  [0, 100],
];

function ageGroupOf(age: number): number {
  return age < 25 ? 0 : age < 35 ? 1 : age < 45 ? 2 : age < 55 ? 3 : age < 65 ? 4 : 5;
}

function drawPeople(seed: number, accounts: number, year: number): Demographics {
  const random = randomStream(seed, 'people');
  const countryCumulative = cumulativeOf(COUNTRIES.map(([, weight]) => weight));
  const people: Demographics = {
    gender: new Uint8Array(accounts),
    birthYear: new Int16Array(accounts),
    country: new Uint16Array(accounts),
    group: new Uint8Array(accounts),
  };
  for (let account = 0; account < accounts; account += 1) {
    const gender = random.next() < 0.51 ? 0 : 1;
    const age = Math.min(90, Math.max(14, Math.round(38 + 15 * random.normal())));
    const [country, , region] = COUNTRIES[random.fromCumulative(countryCumulative)];
    people.gender[account] = gender;
    people.birthYear[account] = year - age;
    people.country[account] = country;
    people.group[account] = (gender * AGE_GROUPS + ageGroupOf(age)) * REGIONS + region;
  }
  return people;
}

/** A number coprime with `n`, so that `(offset + i * stride) % n` visits each of 0..n-1 once. */
function strideFor(random: Random, n: number): number {
  if (n <= 2) return 1;
  for (;;) {
    const stride = 1 + random.below(n - 1);
    if (greatestCommonDivisor(stride, n) === 1) return stride;
  }
}

/**
 * The largest count up to `wanted` that shares no factor with `other`, so that `i % count, i % other` visits every
 * pair.
 */
function coprimeCount(wanted: number, other: number): number {
  let count = Math.max(1, wanted);
  while (count > 1 && greatestCommonDivisor(count, other) !== 1) count -= 1;
  return count;
}

/**
 * Splits `total` votes over questions in proportion to lognormal weights (a few popular
 * questions, many quiet ones), none above `cap`, the parts adding up to exactly `total`.
 */
function spreadVotes(random: Random, questions: number, total: number, cap: number): number[] {
  const weights = Array.from({ length: questions }, () => Math.exp(1.3 * random.normal()));
  const counts = new Array<number>(questions).fill(0);
  const open = new Set(weights.keys());
  let budget = total;
  for (;;) {
    const weightLeft = [...open].reduce((sum, index) => sum + weights[index], 0);
    const over = [...open].filter((index) => (weights[index] * budget) / weightLeft > cap);
    if (over.length === 0) {
      let running = 0;
      let given = 0;
      for (const index of open) {
        running += (weights[index] * budget) / weightLeft;
        counts[index] = Math.round(running) - given;
        given += counts[index];
      }
      return counts;
    }
    for (const index of over) {
      counts[index] = cap;
      budget -= cap;
      open.delete(index);
    }
  }
}

/** The sizes that follow from the parameters; throws, saying why, when they cannot be. */
export function communityShape(parameters: CommunityParameters) {
  for (const [name, value] of Object.entries(parameters)) {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a whole number, not ${value}`);
  }
  const { users: members, questions, votes, bigQuestionVotes, pairQuestionVotes } = parameters;
  if (members < 2) throw new Error('users must be at least 2');
  if (questions < 10) throw new Error('questions must be at least 10');
  if (bigQuestionVotes < 1 || pairQuestionVotes < 1)
    throw new Error('the big question and the pair questions need at least one vote each');
  const sessionUsers = Math.min(SESSION_USERS, members);
  const mixedCount = Math.max(1, Math.min(MIXED_QUESTIONS, Math.floor(questions / 10)));
  const answerTargetCount = coprimeCount(Math.min(ANSWER_TARGETS, Math.floor(questions / 10)), sessionUsers);
  const otherCount = questions - 3 - mixedCount - answerTargetCount;
  const otherVotes = votes - bigQuestionVotes - 2 * pairQuestionVotes;
  if (otherVotes < 0)
    throw new Error(
      `votes (${votes}) must cover the big question's ${bigQuestionVotes} and the pair questions' 2 × ${pairQuestionVotes}`,
    );
  if (otherVotes > otherCount * members)
    throw new Error(`${otherVotes} votes do not fit on ${otherCount} questions of ${members} members, one vote each`);
  return {
    members,
    accounts: Math.max(members, bigQuestionVotes, pairQuestionVotes),
    sessionUsers,
    mixedCount,
    answerTargetCount,
    otherCount,
    otherVotes,
  };
}

/** The whole community, the same for the same parameters on any machine (dates count back from `now`). */
export function planCommunity(parameters: CommunityParameters, now = Date.now()): CommunityPlan {
  const { members, accounts, sessionUsers, mixedCount, otherCount, otherVotes } = communityShape(parameters);
  const { seed, questions: questionCount, pairQuestionVotes: pairVoters } = parameters;

  const year = new Date(now).getUTCFullYear();
  const people = drawPeople(seed, accounts, year);
  const random = randomStream(seed, 'questions');
  const authorStride = strideFor(random, members);
  const authorOffset = random.below(members);
  // A few members ask many questions: u³ piles up near 0, and the stride scatters them over the members.
  const drawAuthor = () => (authorOffset + Math.floor(members * random.next() ** 3) * authorStride) % members;
  const otherVoteCounts = spreadVotes(random, otherCount, otherVotes, members);

  const roleAt = (index: number): QuestionRole => {
    if (index < otherCount) return 'other';
    const special: QuestionRole[] = ['big', 'pairFirst', 'pairSecond'];
    if (index < otherCount + 3) return special[index - otherCount];
    return index < otherCount + 3 + mixedCount ? 'mixed' : 'answerTarget';
  };
  const firstPublished = now - 365 * DAY_MS;
  const questions: PlannedQuestion[] = [];
  for (let index = 0; index < questionCount; index += 1) {
    const role = roleAt(index);
    const topic = TOPICS[random.below(TOPICS.length)];
    const typeDraw = random.next();
    const type: PlannedQuestion['type'] =
      role === 'other' ? (typeDraw < 0.7 ? 'MC' : typeDraw < 0.85 ? 'RS' : 'N') : 'MC';
    let labels = type === 'MC' ? LABEL_SETS[random.below(LABEL_SETS.length)] : [];
    let title =
      type === 'MC'
        ? `What is your take on ${topic}?`
        : type === 'RS'
          ? `How much do you like ${topic}?`
          : `How many hours a month do you give to ${topic}?`;
    if (role === 'mixed') labels = LABEL_SETS[9];
    if (role === 'big') {
      title = 'What matters most when you choose where to live?';
      labels = ['Cost of living', 'Safety', 'Work', 'Family nearby'];
    } else if (role === 'pairFirst') {
      title = 'How often do you exercise?';
      labels = PAIR_LABELS.first;
    } else if (role === 'pairSecond') {
      title = 'How would you rate your health?';
      labels = PAIR_LABELS.second;
    }
    const [min, max] =
      type === 'MC' ? [1, labels.length] : type === 'RS' ? [1, 10] : NUMBER_RANGES[random.below(NUMBER_RANGES.length)];
    const count =
      role === 'other'
        ? otherVoteCounts[index]
        : role === 'big'
          ? parameters.bigQuestionVotes
          : role === 'pairFirst' || role === 'pairSecond'
            ? pairVoters
            : 0;
    const pool =
      role === 'big'
        ? parameters.bigQuestionVotes
        : role === 'pairFirst' || role === 'pairSecond'
          ? pairVoters
          : members;
    // The pair's voters come in the same order on both questions.
    const stride = role === 'pairSecond' ? questions[index - 1].voters.stride : strideFor(random, pool);
    const offset = role === 'pairSecond' ? questions[index - 1].voters.offset : random.below(pool);
    const likeRate = 0.02 + 0.08 * random.next();
    questions.push({
      index,
      role,
      type,
      title,
      labels,
      min,
      max,
      author: drawAuthor(),
      category: random.next() < 0.95 ? 1 + random.below(CATEGORY_NAMES.length) : null,
      tag: random.next() < 0.6 ? TAGS[random.below(TAGS.length)] : null,
      publishedAt: Math.round(firstPublished + ((index + 0.5) / questionCount) * (365 * DAY_MS - 3600_000)),
      voters: { count, pool, offset, stride },
      likes: Math.round(count * likeRate),
    });
  }

  const asked = new Map<number, number>();
  for (const question of questions) asked.set(question.author, (asked.get(question.author) ?? 0) + 1);
  const prolificAuthors = [...asked]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, 50)
    .map(([author]) => author);
  const indexesOf = (role: QuestionRole) =>
    questions.filter((question) => question.role === role).map((question) => question.index);
  return {
    parameters,
    now,
    members,
    accounts,
    people,
    questions,
    roles: {
      sessionUsers,
      bigQuestionVoters: parameters.bigQuestionVotes,
      pairVoters,
      mixedVoters: Math.min(MIXED_VOTERS, sessionUsers),
      bigQuestion: otherCount,
      pairQuestions: [otherCount + 1, otherCount + 2],
      answerTargets: indexesOf('answerTarget'),
      mixedQuestions: indexesOf('mixed'),
      prolificAuthors,
    },
  };
}

/** The account of a question's `i`-th voter. */
export function voterAt(question: PlannedQuestion, i: number): number {
  const { pool, offset, stride } = question.voters;
  return (offset + i * stride) % pool;
}

export function firstNameOf(account: number): string {
  return FIRST_NAMES[account % FIRST_NAMES.length];
}

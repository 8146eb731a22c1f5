import { RATING_SCALE } from '@pollscope/contract';
import type { ChangeMade } from '../changes/change.js';
import { countWithoutTelling } from './counted.js';
import type { Db } from '../db/index.js';
import { SYSTEM_EMAIL } from '../db/schema.js';
import { searchName } from '../lib/search-text.js';
import { hashPassword } from '../modules/auth/index.js';
import { createQuestion, recordVotes, setLikes, type NewLike, type NewVote } from '../modules/polls/index.js';
import { countActivity } from '../modules/site/index.js';
import { setFollowing } from '../modules/social/index.js';
import type { Voter } from '../views/viewer-states.js';

export const DEMO_LOGIN = { email: 'demo@pollscope.app', password: 'pollscope-demo' };

const PEOPLE = [
  { name: 'Demo', gender: 'F', birthdate: '1992-05-14', country: 826 },
  { name: 'Ada', gender: 'F', birthdate: '1988-12-10', country: 826 },
  { name: 'Ben', gender: 'M', birthdate: '1979-03-02', country: 840 },
  { name: 'Chloe', gender: 'F', birthdate: '2001-07-21', country: 250 },
  { name: 'Diego', gender: 'M', birthdate: '1995-11-30', country: 724 },
] as const;

/** The seeded voters ("Voter 1"…), enough for breakdown and relate to show groups of hundreds. */
const VOTERS = 2_000;

/** Their ages this year, spread evenly so that every age band from 18–24 to 65+ holds hundreds. */
const AGES = { min: 18, max: 80 };

/** Where they live (ISO 3166-1 numeric code, share of the voters): two big countries and a spread of smaller ones. */
const COUNTRY_SHARES: readonly (readonly [number, number])[] = [
  [840, 0.4],
  [826, 0.2],
  [124, 0.08],
  [276, 0.07],
  [250, 0.06],
  [724, 0.05],
  [36, 0.05],
  [380, 0.04],
  [392, 0.03],
  [76, 0.02],
];

/** A seeded voter, with what their answers lean on. */
interface Profile extends Voter {
  age: number;
  /** A trait behind two questions, so that relate finds a link between them. */
  followsSport: boolean;
}

/** Men follow a sports team about twice as often as women. */
const followsSportShare = (gender: 'F' | 'M') => (gender === 'M' ? 0.65 : 0.3);

/**
 * A voter's answer weights, one per answer from the lowest (MC key 1, rating 1, the number range's minimum) in order.
 */
type Tendency = (voter: Profile) => number[];

/** 0 for the youngest voters, 1 for the oldest. */
const older = (age: number) => (age - AGES.min) / (AGES.max - AGES.min);

/** Weights that move from `young` for the youngest voters to `old` for the oldest. */
const byAge = (age: number, young: readonly number[], old: readonly number[]) =>
  young.map((weight, index) => weight + (old[index] - weight) * older(age));

/** `weights` with those at `indexes` multiplied by `factor`: a group that leans to some answers. */
const leaning = (weights: readonly number[], indexes: readonly number[], factor: number) =>
  weights.map((weight, index) => (indexes.includes(index) ? weight * factor : weight));

/** Weights for each whole number from `min` to `max`. */
const overRange = (min: number, max: number, weight: (value: number) => number) =>
  Array.from({ length: max - min + 1 }, (_, index) => weight(min + index));

/** Answers gathered around `mean`. */
const bell = (min: number, max: number, mean: number, spread: number) =>
  overRange(min, max, (value) => Math.exp(-(((value - mean) / spread) ** 2) / 2));

/** Answers mostly small, fewer the larger, `mean` on average: counts of things like books read. */
const fading = (min: number, max: number, mean: number) =>
  overRange(min, max, (value) => Math.exp(-(value - min) / mean));

interface DemoQuestion {
  /** Index in PEOPLE. */
  author: number;
  type: 'MC' | 'RS' | 'N';
  question: string;
  choices: readonly string[];
  tags: readonly string[];
  category: number;
  /** How many people answer it, the demo account included when it does. */
  votes: number;
  /**
   * The demo account's answer, if it has one: it sees the most answered question's results and
   * can relate the two it answered at once; a big question it has not answered is for it to try.
   */
  demoAnswer?: number;
  /** How its voters answer: the differences breakdown and relate are there to find. */
  tendency: Tendency;
}

const QUESTIONS: readonly DemoQuestion[] = [
  {
    author: 1,
    type: 'MC',
    question: 'Will remote work still be the norm in ten years?',
    choices: ['Yes', 'No', 'Only in tech'],
    tags: ['work'],
    category: 10,
    votes: 1_150,
    // The young believe in it, the old do not; Americans say "only in tech" more.
    tendency: ({ age, country_id }) =>
      leaning(byAge(age, [0.6, 0.2, 0.2], [0.2, 0.6, 0.2]), [2], country_id === 840 ? 2 : 1),
  },
  {
    author: 2,
    type: 'RS',
    question: 'How much do you enjoy cooking at home?',
    choices: [],
    tags: ['cooking'],
    category: 7,
    votes: 1_050,
    // Women rate it about two points higher.
    tendency: ({ gender }) => bell(RATING_SCALE.min, RATING_SCALE.max, gender === 'F' ? 7 : 5, 2),
  },
  {
    author: 3,
    type: 'N',
    question: 'How many books did you read last year?',
    choices: ['0', '100'],
    tags: ['books'],
    category: 11,
    votes: 700,
    // From about 3 at 18 to about 18 at 80.
    tendency: ({ age }) => fading(0, 100, 3 + 15 * older(age)),
  },
  {
    author: 1,
    type: 'MC',
    question: 'Which do you prefer for a holiday?',
    choices: ['Beach', 'Mountains', 'City', 'Countryside'],
    tags: ['travel'],
    category: 8,
    votes: 1_300,
    demoAnswer: 2, // Mountains
    // The young pick the city or the beach, the old the countryside or the mountains; sports fans go to the mountains
    // or the beach, others less.
    tendency: ({ age, followsSport }) =>
      leaning(byAge(age, [0.35, 0.1, 0.45, 0.1], [0.2, 0.3, 0.1, 0.4]), [0, 1], followsSport ? 2 : 0.6),
  },
  {
    author: 2,
    type: 'MC',
    question: 'Do you follow a sports team?',
    choices: ['Yes', 'No'],
    tags: ['sport'],
    category: 2,
    votes: 1_700,
    demoAnswer: 1, // Yes
    tendency: ({ followsSport }) => (followsSport ? [1, 0] : [0, 1]),
  },
  {
    author: 4,
    type: 'MC',
    question: 'Should schools teach programming from age 8?',
    choices: ['Yes', 'No'],
    tags: ['school'],
    category: 11,
    votes: 40,
    // No planted difference here nor in the two below: not every question splits by group.
    tendency: () => [3, 2],
  },
  {
    author: 3,
    type: 'MC',
    question: 'Do you have a pet?',
    choices: ['A dog', 'A cat', 'Another pet', 'No pet'],
    tags: ['pets'],
    category: 9,
    votes: 250,
    tendency: () => [35, 25, 10, 30],
  },
  {
    author: 4,
    type: 'N',
    question: 'How many hours a week do you exercise?',
    choices: ['0', '40'],
    tags: ['fitness'],
    category: 6,
    votes: 30,
    tendency: () => fading(0, 40, 4),
  },
];

/** Of the votes of the seeded voters, the share who also like the question. */
const LIKED_SHARE = 0.1;

/** A password hash no password matches (it is no scrypt hash): the seeded voters cannot sign in. */
const NO_PASSWORD = '!';

/** Rows written per statement: far below either database's limit on parameters. */
const ROWS_PER_WRITE = 1_000;

/**
 * A small deterministic generator, so every fresh demo community looks the same. Math.imul keeps
 * the product exact: in floating point it lost its low bits and the sequence repeated within
 * about 16,000 draws, fewer than the community takes.
 */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) & 0x7fff_ffff;
    return state / 2 ** 31;
  };
}

/** An index drawn with the given weights. */
function pick(weights: readonly number[], next: () => number): number {
  let left = next() * weights.reduce((sum, weight) => sum + weight, 0);
  for (let index = 0; index < weights.length; index += 1) {
    left -= weights[index];
    if (left < 0) return index;
  }
  return weights.length - 1;
}

/** `count` of `items`, each as likely as any other. */
function sample<T>(items: readonly T[], count: number, next: () => number): T[] {
  const shuffled = [...items];
  for (let index = shuffled.length - 1; index > 0; index -= 1) {
    const other = Math.floor(next() * (index + 1));
    [shuffled[index], shuffled[other]] = [shuffled[other], shuffled[index]];
  }
  return shuffled.slice(0, count);
}

/** The lowest answer of a question: the first weight of its tendency is for it. */
const lowestAnswer = (spec: DemoQuestion) => (spec.type === 'N' ? Number(spec.choices[0]) : 1);

interface NewPerson {
  email: string;
  passwordHash: string;
  name: string;
  birthdate: string;
  gender: 'F' | 'M';
  country: number;
}

/** A `users` row as registration writes it. */
function userRow(person: NewPerson, createdAt: string) {
  return {
    email: person.email,
    password_hash: person.passwordHash,
    first_name: person.name,
    search_name: searchName(person.name),
    birthdate: person.birthdate,
    birth_year: Number(person.birthdate.slice(0, 4)),
    gender: person.gender,
    country_id: person.country,
    created_at: createdAt,
  };
}

/**
 * A community for a fresh install: five named people and two thousand voters of every age band
 * from ten countries, whose answers to questions of each kind differ by gender, age and country
 * and link two questions, so that breakdown and relate show real splits at once. Follows, votes
 * and likes go through the same code paths as the API. Runs only on a database with no people yet.
 */
export async function seedDemoCommunity(db: Db, hashCost: number): Promise<typeof DEMO_LOGIN | null> {
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where('email', '!=', SYSTEM_EMAIL)
    .limit(1)
    .executeTakeFirst();
  if (existing) return null;
  // One hash for the five named people: hashing is what takes time.
  const passwordHash = await hashPassword(DEMO_LOGIN.password, hashCost);
  const next = random(42);
  const now = new Date();
  const createdAt = now.toISOString();
  await db.transaction().execute(async (trx) => {
    const named: Voter[] = [];
    for (const person of PEOPLE) {
      const email = person.name === 'Demo' ? DEMO_LOGIN.email : `${person.name.toLowerCase()}@pollscope.app`;
      const row = userRow({ ...person, email, passwordHash }, createdAt);
      const { id } = await trx.insertInto('users').values(row).returning('id').executeTakeFirstOrThrow();
      named.push({ id, gender: row.gender, birth_year: row.birth_year, country_id: row.country_id });
    }
    const voters = await addVoters(trx, now.getUTCFullYear(), createdAt, next);
    await countActivity(trx, 'users', named.length + voters.length);
    const [demo] = named;
    for (const followee of named.slice(1, 4)) await setFollowing(trx, demo.id, followee.id, true);
    const made: ChangeMade[] = [];

    for (const spec of QUESTIONS) {
      const asked = await createQuestion(trx, named[spec.author].id, {
        type: spec.type,
        question: spec.question,
        choices: [...spec.choices],
        tags: [...spec.tags],
        category: spec.category,
      });
      made.push(asked);
      const { questionId } = asked;
      const votes: NewVote[] =
        spec.demoAnswer === undefined ? [] : [{ questionId, voter: demo, choice: spec.demoAnswer }];
      const answering = sample(voters, spec.votes - votes.length, next);
      for (const voter of answering)
        votes.push({ questionId, voter, choice: lowestAnswer(spec) + pick(spec.tendency(voter), next) });
      for (let start = 0; start < votes.length; start += ROWS_PER_WRITE)
        made.push(...(await recordVotes(trx, votes.slice(start, start + ROWS_PER_WRITE))));
      const likes: NewLike[] = answering
        .filter(() => next() < LIKED_SHARE)
        .map((voter) => ({ userId: voter.id, questionId, liked: true }));
      for (let start = 0; start < likes.length; start += ROWS_PER_WRITE)
        made.push(...(await setLikes(trx, likes.slice(start, start + ROWS_PER_WRITE))));
    }
    await countWithoutTelling(trx, made);
  });
  return DEMO_LOGIN;
}

/**
 * Writes the seeded voters, many per statement, and returns them with their traits; `year` is this year, that ages
 * count in.
 */
async function addVoters(trx: Db, year: number, createdAt: string, next: () => number): Promise<Profile[]> {
  const drawn = Array.from({ length: VOTERS }, (_, index) => {
    const age = AGES.min + Math.floor(next() * (AGES.max - AGES.min + 1));
    const gender: 'F' | 'M' = next() < 0.5 ? 'F' : 'M';
    const country =
      COUNTRY_SHARES[
        pick(
          COUNTRY_SHARES.map(([, share]) => share),
          next,
        )
      ][0];
    const traits = {
      gender,
      birth_year: year - age,
      country_id: country,
      age,
      followsSport: next() < followsSportShare(gender),
    };
    const birthdate = `${year - age}-${twoDigits(1 + Math.floor(next() * 12))}-${twoDigits(1 + Math.floor(next() * 28))}`;
    const row = userRow(
      {
        email: `voter${index + 1}@pollscope.app`,
        passwordHash: NO_PASSWORD,
        name: `Voter ${index + 1}`,
        birthdate,
        gender,
        country,
      },
      createdAt,
    );
    return { row, traits };
  });
  const traitsByEmail = new Map(drawn.map(({ row, traits }) => [row.email, traits]));
  const voters: Profile[] = [];
  for (let start = 0; start < drawn.length; start += ROWS_PER_WRITE) {
    const written = await trx
      .insertInto('users')
      .values(drawn.slice(start, start + ROWS_PER_WRITE).map(({ row }) => row))
      .returning(['id', 'email'])
      .execute();
    // Matched by email: neither database promises to return the rows in the order given.
    for (const { id, email } of written) voters.push({ id, ...traitsByEmail.get(email)! });
  }
  return voters;
}

const twoDigits = (value: number) => String(value).padStart(2, '0');

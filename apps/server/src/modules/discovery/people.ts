import type { Person, Suggestion } from '@pollscope/contract';
import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import { searchName } from '../../lib/search-text.js';
import type { ViewerState } from '../../views/viewer-states.js';

/** People found by name, at most. */
const PEOPLE_FOUND = 20;
/** People suggested, at most. */
const SUGGESTED = 10;
/** The newest questions of the site, or of a category, that tell who asks actively. */
const RECENT_QUESTIONS = 500;

/** The first string after every string that starts with `prefix`, in the byte order of `users_by_search_name`. */
function pastPrefix(prefix: string): string {
  const points = [...prefix];
  const last = points.pop()!;
  return points.join('') + String.fromCodePoint(last.codePointAt(0)! + 1);
}

/**
 * People whose first name starts with `query` (any case, any accent; "mar" finds Marie and
 * María), the one named exactly so first, then those who ask the most. Nobody blocked either
 * way, and not the viewer.
 */
export async function findPeople(db: Db, viewer: ViewerState, query: string): Promise<Person[]> {
  const name = searchName(query);
  if (name === '') return [];
  const rows = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'question_count'])
    .where('search_name', '>=', name)
    .where('search_name', '<', pastPrefix(name))
    .orderBy(sql`case when search_name = ${name} then 0 else 1 end`)
    .orderBy('question_count', 'desc')
    .orderBy('id')
    // The viewer and those blocked either way are left out after: they are few.
    .limit(PEOPLE_FOUND + 1 + viewer.blocked.size)
    .execute();
  const followees = new Set(viewer.followees);
  return rows
    .filter((row) => row.id !== viewer.userId && !viewer.blocked.has(row.id))
    .slice(0, PEOPLE_FOUND)
    .map((row) => ({ id: row.id, name: row.first_name, asked: row.question_count, connected: followees.has(row.id) }));
}

/** A person a source suggests, and how strongly: the number its reason counts. */
interface Candidate {
  id: number;
  strength: number;
}

/** Where a suggestion comes from, and how its reason reads. */
interface Source {
  candidates(): Promise<Candidate[]>;
  reason(strength: number): string;
}

/** A question of the quiz: everyone answers them before signing up, so they tell nothing of anyone's taste. */
const notInQuiz = (eb: ExpressionBuilder<Database, 'questions'>) =>
  eb.not(
    eb.exists(
      eb.selectFrom('quiz_items').select('quiz_items.id').whereRef('quiz_items.question_id', '=', 'questions.id'),
    ),
  );

/** Whose suggestions are sought, and how many each source is asked for. */
interface Seeking {
  db: Db;
  me: number;
  /** Enough that those blocked either way can be left out after. */
  wanted: number;
}

const notFollowedBy = (me: number, userId: string) =>
  sql<SqlBool>`not exists (select 1 from follows where follows.follower_id = ${me} and follows.followee_id = ${sql.ref(userId)})`;

const notMineNorFollowed = (me: number) => (eb: ExpressionBuilder<Database, 'questions'>) =>
  eb.and([eb('questions.user_id', '!=', me), notFollowedBy(me, 'questions.user_id')]);

/** People followed by those the viewer follows, by how many of them follow each. */
const followedByFollowees = ({ db, me, wanted }: Seeking) =>
  db
    .selectFrom('follows as mine')
    .innerJoin('follows as theirs', 'theirs.follower_id', 'mine.followee_id')
    .innerJoin('users', 'users.id', 'theirs.followee_id')
    .select((eb) => ['theirs.followee_id as id', eb.fn.countAll<number>().as('strength')])
    .where('mine.follower_id', '=', me)
    .where('theirs.followee_id', '!=', me)
    .where('users.question_count', '>', 0)
    .where(notFollowedBy(me, 'theirs.followee_id'))
    .groupBy('theirs.followee_id')
    .orderBy('strength', 'desc')
    .orderBy('theirs.followee_id', 'desc')
    .limit(wanted)
    .execute();

/** The authors of questions the viewer answered, by how many of theirs. */
const answeredAuthors = ({ db, me, wanted }: Seeking) =>
  db
    .selectFrom('votes')
    .innerJoin('questions', 'questions.id', 'votes.question_id')
    .select((eb) => ['questions.user_id as id', eb.fn.countAll<number>().as('strength')])
    .where('votes.user_id', '=', me)
    .where(notMineNorFollowed(me))
    .where(notInQuiz)
    .groupBy('questions.user_id')
    .orderBy('strength', 'desc')
    .orderBy('questions.user_id', 'desc')
    .limit(wanted)
    .execute();

/**
 * The authors of the newest questions (of a category), by how many of them they asked, or how many answers those
 * drew.
 */
const recentAskers = ({ db, me, wanted }: Seeking, categoryId: number | null, by: 'questions' | 'answers') =>
  db
    .selectFrom((eb) => {
      let recent = eb
        .selectFrom('questions')
        .select(['questions.id', 'questions.user_id', 'questions.vote_count'])
        .where(notMineNorFollowed(me))
        .where(notInQuiz);
      if (categoryId !== null) recent = recent.where('questions.category_id', '=', categoryId);
      return recent.orderBy('questions.id', 'desc').limit(RECENT_QUESTIONS).as('recent');
    })
    .select((eb) => [
      'recent.user_id as id',
      (by === 'questions' ? eb.fn.countAll<number>() : eb.fn.sum<number>('recent.vote_count')).as('strength'),
    ])
    .groupBy('recent.user_id')
    .having((eb) => (by === 'questions' ? eb.fn.countAll() : eb.fn.sum('recent.vote_count')), '>', 0)
    .orderBy('strength', 'desc')
    .orderBy('recent.user_id', 'desc')
    .limit(wanted)
    .execute();

/** The sources of suggestions, from the strongest reason to the weakest. */
function sourcesOf(seeking: Seeking, category: { id: number; name: string } | null): Source[] {
  return [
    {
      candidates: () => followedByFollowees(seeking),
      reason: (count) => (count === 1 ? 'Followed by 1 person you follow' : `Followed by ${count} people you follow`),
    },
    {
      candidates: () => answeredAuthors(seeking),
      reason: (count) =>
        count === 1 ? 'You answered one of their questions' : `You answered ${count} of their questions`,
    },
    ...(category
      ? [
          {
            candidates: () => recentAskers(seeking, category.id, 'questions'),
            reason: () => `Asks about ${category.name}`,
          },
        ]
      : []),
    { candidates: () => recentAskers(seeking, null, 'answers'), reason: () => 'Asks popular questions' },
  ];
}

/**
 * Up to 10 people the viewer does not follow, who ask questions, each with the reason it is
 * suggested, from the strongest reason to the weakest: followed by people the viewer follows;
 * the authors of questions the viewer answered; active askers in the viewer's favourite category
 * (else the category they answer most); the askers of the site's most answered recent questions,
 * so that someone who follows nobody and answered nothing yet has people to start with. Never the
 * viewer, someone they follow, or someone blocked either way.
 */
export async function suggestPeople(db: Db, viewer: ViewerState): Promise<Suggestion[]> {
  const me = viewer.userId;
  const seeking = { db, me, wanted: SUGGESTED + viewer.blocked.size };
  const sources = sourcesOf(seeking, await favouriteCategory(db, me));
  const found = await Promise.all(sources.map((source) => source.candidates()));

  // Each person with the strongest reason found for them.
  const reasons = new Map<number, string>();
  sources.forEach((source, index) => {
    for (const { id, strength } of found[index]) {
      if (!reasons.has(id) && !viewer.blocked.has(id)) reasons.set(id, source.reason(Number(strength)));
    }
  });
  return suggestionsOf(db, [...reasons].slice(0, SUGGESTED));
}

/** The people chosen, each with their reason, in the order chosen. */
async function suggestionsOf(db: Db, chosen: [id: number, reason: string][]): Promise<Suggestion[]> {
  if (chosen.length === 0) return [];
  const people = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'question_count'])
    .where(
      'id',
      'in',
      chosen.map(([id]) => id),
    )
    .execute();
  const byId = new Map(people.map((person) => [person.id, person]));
  return chosen.flatMap(([id, reason]) => {
    const person = byId.get(id);
    return person ? [{ id, name: person.first_name, asked: person.question_count, reason }] : [];
  });
}

/** The viewer's favourite category, else the one of the questions they answered most (the quiz aside), else null. */
async function favouriteCategory(db: Db, userId: number): Promise<{ id: number; name: string } | null> {
  const favourite = await db
    .selectFrom('users')
    .innerJoin('categories', 'categories.id', 'users.favorite_category_id')
    .select(['categories.id', 'categories.name'])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  if (favourite) return favourite;
  const answered = await db
    .selectFrom('votes')
    .innerJoin('questions', 'questions.id', 'votes.question_id')
    .innerJoin('categories', 'categories.id', 'questions.category_id')
    .select((eb) => ['categories.id', 'categories.name', eb.fn.countAll<number>().as('answers')])
    .where('votes.user_id', '=', userId)
    .where(notInQuiz)
    .groupBy(['categories.id', 'categories.name'])
    .orderBy('answers', 'desc')
    .orderBy('categories.id')
    .limit(1)
    .executeTakeFirst();
  return answered ? { id: answered.id, name: answered.name } : null;
}

import { sql, type RawBuilder } from 'kysely';
import { fromJsonArray, jsonArrayOf, type DialectName } from '../db/dialect.js';
import type { Db } from '../db/index.js';
import { Lookup } from '../db/lookups.js';
import type { UserRow } from '../db/schema.js';
import { ClockCache, type CacheStats } from '../lib/clock-cache.js';
import { IdSet, IdTable } from '../lib/id-table.js';

export interface OwnVote {
  choice: number;
  /** The vote's place in its question's order: a result counting fewer votes predates it. */
  seq: number;
}

/** A person's answers by question, kept compact: a state is kept for every person served. */
export class OwnVotes {
  private readonly table: IdTable;

  constructor(votes: readonly { question_id: number; choice: number; seq: number }[] = []) {
    this.table = new IdTable(
      2,
      votes.map((vote) => [vote.question_id, vote.choice, vote.seq]),
    );
  }

  get size(): number {
    return this.table.size;
  }

  has(questionId: number): boolean {
    return this.table.has(questionId);
  }

  get(questionId: number): OwnVote | undefined {
    const row = this.table.rowOf(questionId);
    return row < 0 ? undefined : { choice: this.table.at(row, 0), seq: this.table.at(row, 1) };
  }

  set(questionId: number, vote: OwnVote): void {
    this.table.set(questionId, [vote.choice, vote.seq]);
  }
}

/** Who voted, as a vote keeps them: breakdown counts each vote in its voter's group as it was then. */
export type Voter = Pick<UserRow, 'id' | 'gender' | 'birth_year' | 'country_id'>;

/** What a person sees of their own on every page: their answers, likes, hidden questions and connections. */
export interface ViewerState {
  readonly userId: number;
  /** The `users.state_version` this state reflects. */
  version: number;
  voter: Voter;
  votes: OwnVotes;
  likes: IdSet;
  passes: IdSet;
  followees: number[];
  /** People this viewer blocked or who blocked this viewer. */
  blocked: IdSet;
  /** Their language (`users.language`): the one the API's messages to them are written in. */
  language: string;
  /** The languages of the questions their lists show (`users.question_languages`); null for all. */
  questionLanguages: ReadonlySet<string> | null;
}

/** What a kept state takes, measured in V8's heap: about 660 bytes, 31 an answer, 11 another id. */
const STATE_BYTES = 700;
const OWN_VOTE_BYTES = 32;
const ID_BYTES = 12;

function sizeOf(state: ViewerState): number {
  const ids = state.likes.size + state.passes.size + state.followees.length + state.blocked.size;
  return STATE_BYTES + OWN_VOTE_BYTES * state.votes.size + ID_BYTES * ids;
}

export type StateRow = Pick<
  UserRow,
  'id' | 'gender' | 'birth_year' | 'country_id' | 'language' | 'question_languages'
> &
  Record<'votes' | 'likes' | 'passes' | 'followees' | 'blocked', unknown>;

/**
 * A person's own state as columns of their row of `users`, beside whatever else a statement reads with it (their
 * session, say): the voter's group, their languages, then their answers, likes, hidden questions and connections, each
 * a JSON array.
 */
export function stateSelections(dialect: DialectName) {
  const list = (...values: RawBuilder<unknown>[]) => jsonArrayOf(dialect, values);
  const ownVote = list(sql.ref('question_id'), sql.ref('choice'), sql.ref('seq'));
  const otherOne = list(sql`case when blocker_id = users.id then blocked_id else blocker_id end`);
  return [
    sql<UserRow['gender']>`users.gender`.as('gender'),
    sql<UserRow['birth_year']>`users.birth_year`.as('birth_year'),
    sql<UserRow['country_id']>`users.country_id`.as('country_id'),
    sql<string>`users.language`.as('language'),
    sql<UserRow['question_languages']>`users.question_languages`.as('question_languages'),
    sql`(select ${ownVote} from votes where user_id = users.id)`.as('votes'),
    sql`(select ${list(sql.ref('question_id'))} from likes where user_id = users.id)`.as('likes'),
    sql`(select ${list(sql.ref('question_id'))} from passes where user_id = users.id)`.as('passes'),
    sql`(select ${list(sql.ref('followee_id'))} from follows where follower_id = users.id)`.as('followees'),
    sql`(select ${otherOne} from blocks where blocker_id = users.id or blocked_id = users.id)`.as('blocked'),
  ] as const;
}

/** A state labelled `version`: read after that version was, so it holds at least what it says. */
function stateOf(
  { votes, likes, passes, followees, blocked, language, question_languages, ...voter }: StateRow,
  version: number,
): ViewerState {
  return {
    userId: voter.id,
    version,
    voter,
    language,
    questionLanguages: question_languages === null ? null : new Set(JSON.parse(question_languages) as string[]),
    votes: new OwnVotes(
      fromJsonArray<[number, number, number]>(votes).map(([question_id, choice, seq]) => ({
        question_id,
        choice,
        seq,
      })),
    ),
    likes: new IdSet(fromJsonArray<number>(likes)),
    passes: new IdSet(fromJsonArray<number>(passes)),
    followees: fromJsonArray<number>(followees),
    blocked: new IdSet(fromJsonArray<number>(blocked)),
  };
}

/**
 * The state of the people this server instance serves, kept in memory and checked on every call
 * against the version read with the session: a change made anywhere moves the version, so a
 * state kept here is used only while nothing changed it. Changes this instance commits are
 * applied to the kept state at once, so a person who answers or likes is not read again. The
 * least recently served are dropped past `maxBytes`.
 */
export class ViewerStates {
  private readonly states: ClockCache<number, ViewerState>;
  /** The states missed in one turn, read together. */
  private readonly stateRows: Lookup<number, StateRow>;

  constructor(
    maxBytes: number,
    readonly dialect: DialectName,
  ) {
    this.states = new ClockCache(maxBytes, sizeOf);
    this.stateRows = new Lookup(
      (db, idIsOneOf) =>
        db
          .selectFrom('users')
          .select(['users.id', ...stateSelections(dialect)])
          .where(idIsOneOf('users.id')),
      (row) => row.id,
    );
  }

  /** What is kept, for the metrics. */
  stats(): CacheStats {
    return this.states.stats();
  }

  /** The viewer's state at `version`, the one read with their session. */
  async get(db: Db, userId: number, version: number): Promise<ViewerState> {
    const kept = this.states.get(userId);
    if (kept && kept.version === version) return kept;
    const row = await this.stateRows.loadOne(db, userId);
    if (!row) throw new Error(`no user ${userId}`);
    const state = stateOf(row, version);
    this.states.set(userId, state);
    return state;
  }

  /** Whether a state of the person is kept, of whatever version. */
  holds(userId: number): boolean {
    return this.states.has(userId);
  }

  /** The person's state read with something else (their session): kept unless a later one already is. */
  prime(row: StateRow, version: number): void {
    const kept = this.states.get(row.id);
    if (!kept || kept.version < version) this.states.set(row.id, stateOf(row, version));
  }

  /**
   * The person's state as it is now, read again only when its version moved since it was kept; null for an account
   * gone.
   */
  async latest(db: Db, userId: number): Promise<ViewerState | null> {
    const user = await db.selectFrom('users').select('state_version').where('id', '=', userId).executeTakeFirst();
    return user ? this.get(db, userId, user.state_version) : null;
  }

  /** The person's account was deleted. */
  forget(userId: number): void {
    this.states.delete(userId);
  }

  /**
   * A committed change that took the viewer's version to `version`: when the kept state is the one
   * just before it, it takes the change; otherwise the next call reads the state again.
   */
  changed(userId: number, version: number, apply: (state: ViewerState) => void): void {
    const kept = this.states.get(userId);
    if (!kept || kept.version >= version) return;
    if (kept.version !== version - 1) {
      this.states.delete(userId);
      return;
    }
    apply(kept);
    kept.version = version;
    this.states.resized(userId);
  }
}

import type { BatchedWriter } from '../../changes/batched-writer.js';
import type { Changes } from '../../changes/layer.js';
import { isUniqueViolation } from '../../db/database-errors.js';
import { ConflictError } from '../../errors.js';
import { recordVotes, setLikes, type NewLike, type NewVote, type VotedChange } from './questions.js';

/**
 * Votes of concurrent requests, written together; each request gets its own vote's change. A second vote of one
 * voter, which the unique key refuses (with the statement on SQLite, with the commit on PostgreSQL), is a conflict.
 */
export function voteWriter(changes: Changes): BatchedWriter<NewVote, VotedChange> {
  return changes.batched({
    name: 'vote',
    noun: 'Votes',
    write: recordVotes,
    // The batch's votes come first, in the order of its requests; what they caused follows.
    results: (committed) => committed.filter((change): change is VotedChange => change.kind === 'voted'),
    refusal: (error) => (isUniqueViolation(error) ? new ConflictError('errors.alreadyAnswered') : error),
  });
}

/** Likes and unlikes of concurrent requests, written together: a popular question's count moves once per batch. */
export function likeWriter(changes: Changes): BatchedWriter<NewLike, void> {
  return changes.batched({
    name: 'like',
    noun: 'Likes',
    write: setLikes,
    results: (_committed, likes) => likes.map(() => undefined),
  });
}

import type { Registry } from 'prom-client';
import { BatchedWriter, type BatchedWrites } from '../../changes/batched-writer.js';
import { isUniqueViolation } from '../../db/database-errors.js';
import { ConflictError } from '../../errors.js';
import { recordVotes, setLikes, type NewLike, type NewVote, type VotedChange } from './questions.js';

type Commit = BatchedWrites<unknown, unknown>['commit'];

/**
 * Votes of concurrent requests, written together; each request gets its own vote's change. A second vote of one
 * voter, which the unique key refuses (with the statement on SQLite, with the commit on PostgreSQL), is a conflict.
 */
export function voteWriter(commit: Commit, metrics: Registry): BatchedWriter<NewVote, VotedChange> {
  return new BatchedWriter(
    {
      name: 'vote',
      noun: 'Votes',
      commit: (write) =>
        commit(write).catch((error: unknown) => {
          throw isUniqueViolation(error) ? new ConflictError('errors.alreadyAnswered') : error;
        }),
      write: recordVotes,
      // The batch's votes come first, in the order of its requests; what they caused follows.
      results: (changes) => changes.filter((change): change is VotedChange => change.kind === 'voted'),
    },
    metrics,
  );
}

/** Likes and unlikes of concurrent requests, written together: a popular question's count moves once per batch. */
export function likeWriter(commit: Commit, metrics: Registry): BatchedWriter<NewLike, void> {
  return new BatchedWriter(
    { name: 'like', noun: 'Likes', commit, write: setLikes, results: (_changes, likes) => likes.map(() => undefined) },
    metrics,
  );
}

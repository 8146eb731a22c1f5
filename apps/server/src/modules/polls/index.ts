/**
 * What the rest of the app uses of this area. It imports it from here only, so that this area's own files can change
 * without touching it.
 */
export { feedJson } from './feed.js';
export { questionOfTheDayFinder } from './question-of-the-day.js';
export {
  checkChoice,
  createQuestion,
  recordVote,
  recordVotes,
  setLikes,
  type NewLike,
  type NewVote,
} from './questions.js';
export { lockContentOf, removeContentOf, type RemovedContent } from './removal.js';

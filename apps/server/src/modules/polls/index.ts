/** What other module areas use of this one. They import it from here only, so that this area's own files can change without touching them. */
export { checkChoice, recordVote, recordVotes, type NewVote } from './questions.js';
export { lockContentOf, removeContentOf, type RemovedContent } from './removal.js';

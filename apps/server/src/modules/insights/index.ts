/**
 * What the rest of the app uses of this area. It imports it from here only, so that this area's own files can change
 * without touching it.
 */
export { NoiseStore } from './noise-store.js';
export { PairTables } from './pair-tables.js';
export { RelatedCache } from './related.js';
export { keepReleasedVotesOf } from './kept-votes.js';
export { forgetReleasesOf } from './released-questions.js';
export { SegmentTables } from './segment-tables.js';

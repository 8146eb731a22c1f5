import { geometricSchedule } from './binary-tree.js';

/**
 * When a release counts more: at doublings. Each vote falls in exactly one epoch, the votes
 * between two release points, and each epoch's tables are released once with the whole budget
 * (a vote is in no other epoch's). The count up to an epoch is the sum of the epochs before it,
 * so its noise grows with how many epochs there are: doubling keeps them to about log₂(n / first),
 * 4 at 400 votes and 15 at a million, at the price of counting between half and all of the votes.
 */
export const FIRST_RELEASE_POINT = 32;

/** The release point after `counted` votes: the first doubling of FIRST_RELEASE_POINT past it. */
export function nextReleasePoint(counted: number): number {
  let point = FIRST_RELEASE_POINT;
  while (point <= counted) point *= 2;
  return point;
}

/** Every release point after `counted` up to `votes`, in order. */
export function releasePointsBetween(counted: number, votes: number): number[] {
  const points: number[] = [];
  for (let point = nextReleasePoint(counted); point <= votes; point *= 2) points.push(point);
  return points;
}

/**
 * Where a relate pair's people are counted again, to see whether its next epoch is due: 16 points
 * per doubling of each question's votes, so a pair's epochs are cut within a sixteenth of where
 * its people double.
 */
export const PROBE_POINTS = geometricSchedule(16);

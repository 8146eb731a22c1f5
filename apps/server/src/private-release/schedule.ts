import { geometricSchedule } from './binary-tree.js';

/**
 * When a breakdown release counts more: twice per doubling, at 32, 48, 64, 96, 128… votes. Each
 * vote falls in exactly one epoch, the votes between two release points, and the count up to an
 * epoch is read from the factorized stream of the epochs' releases (factorization.ts), whose
 * noise grows slowly with their number: 8 epochs at 400 votes, 30 at a million, counting between
 * two thirds and all of the votes (at a million, 786,432). One point per doubling would count
 * half at worst with less noise, four would count four fifths with more: docs/insights.md compares
 * them.
 */
export const FIRST_RELEASE_POINT = 32;
export const POINTS_PER_DOUBLING = 2;

/** The release point after `counted` votes: the first of 32·2^m·(1 + k/perDoubling) past it. */
export function nextReleasePoint(counted: number, perDoubling = POINTS_PER_DOUBLING): number {
  let doubling = FIRST_RELEASE_POINT;
  while (2 * doubling <= counted) doubling *= 2;
  if (counted < doubling) return doubling;
  const step = doubling / perDoubling;
  return doubling + (Math.floor((counted - doubling) / step) + 1) * step;
}

/** Every release point after `counted` up to `votes`, in order. */
export function releasePointsBetween(counted: number, votes: number, perDoubling = POINTS_PER_DOUBLING): number[] {
  const points: number[] = [];
  for (let point = nextReleasePoint(counted, perDoubling); point <= votes; point = nextReleasePoint(point, perDoubling))
    points.push(point);
  return points;
}

/**
 * Where a relate pair's people are counted again, to see whether its next epoch is due: 16 points
 * per doubling of each question's votes, so a pair's epochs are cut within a sixteenth of where
 * its people double.
 */
export const PROBE_POINTS = geometricSchedule(16);

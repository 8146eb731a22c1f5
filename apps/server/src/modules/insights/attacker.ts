/**
 * What someone can work out from the groups a set of responses publishes, when they know every
 * voter's gender, age, country and answers to other questions, so that they know exactly who is
 * in each group: the votes of every set of people that sums and differences of the groups'
 * results add up to. Used by the privacy tests to play the attacker.
 */

/** The people of a published group, as indexes into the community. */
export type Members = readonly number[];

const TOLERANCE = 1e-9;

function rank(vectors: number[][]): number {
  const rows = vectors.map((vector) => [...vector]);
  const width = rows[0]?.length ?? 0;
  let found = 0;
  for (let column = 0; column < width && found < rows.length; column += 1) {
    const pivot = rows.findIndex((row, index) => index >= found && Math.abs(row[column]) > TOLERANCE);
    if (pivot === -1) continue;
    [rows[found], rows[pivot]] = [rows[pivot], rows[found]];
    for (const [index, row] of rows.entries()) {
      if (index === found) continue;
      const factor = row[column] / rows[found][column];
      if (factor !== 0) for (let j = column; j < width; j += 1) row[j] -= factor * rows[found][j];
    }
    found += 1;
  }
  return found;
}

/**
 * Every set of 1 to k − 1 people whose votes the groups give away: a set that some combination
 * of the groups' results (added, subtracted or scaled) counts exactly, and nobody else.
 */
export function exposedSets(community: number, groups: Members[], k: number): number[][] {
  // People in exactly the same groups cannot be told apart: the results only ever count them together.
  const classes = new Map<string, number[]>();
  const membership = Array.from({ length: community }, () => new Array<number>(groups.length).fill(0));
  groups.forEach((group, index) => group.forEach((person) => (membership[person][index] = 1)));
  membership.forEach((pattern, person) => {
    if (!pattern.includes(1)) return;
    const key = pattern.join('');
    classes.set(key, [...(classes.get(key) ?? []), person]);
  });
  const classList = [...classes.values()];
  const patterns = [...classes.keys()];
  const groupVectors = groups.map((_, index) => patterns.map((pattern) => Number(pattern[index])));
  const groupsRank = rank(groupVectors);
  const determined = (chosen: number[]) => {
    const indicator = classList.map((_, index) => (chosen.includes(index) ? 1 : 0));
    return rank([...groupVectors, indicator]) === groupsRank;
  };

  const exposed: number[][] = [];
  const small = classList.flatMap((people, index) => (people.length < k ? [index] : []));
  const search = (from: number, chosen: number[], size: number) => {
    for (let position = from; position < small.length; position += 1) {
      const index = small[position];
      const grown = size + classList[index].length;
      if (grown >= k) continue;
      const next = [...chosen, index];
      if (determined(next)) exposed.push(next.flatMap((chosenIndex) => classList[chosenIndex]));
      search(position + 1, next, grown);
    }
  };
  search(0, [], 0);
  return exposed;
}

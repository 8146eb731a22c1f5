/**
 * The release before the current one, kept to read the releases it made (marginals.ts says what
 * replaced it): running counts released again and again without the noise averaging away, by the binary-tree
 * mechanism (Dwork, Naor, Pitassi and Rothblum 2010; Chan, Shi and Song 2011). The stream is cut
 * into epochs 1, 2, 3…; each node of a binary tree over the epochs holds the count of a run of
 * them plus noise drawn once, and the count up to epoch k is the sum of the few nodes that tile
 * [1, k]. Whatever is added arrives in one epoch and so in one node per level of the tree: the
 * privacy it costs is that of one release per level, however often the running count is read.
 *
 * Epochs end at release points spaced geometrically: every count up to twice `perDoubling`, then
 * `perDoubling` points in each doubling. A release is never more than one `perDoubling`th behind
 * the count it follows, and a stream of up to 2³¹ items has a few hundred epochs, so the tree is
 * shallow.
 */

export interface ReleaseSchedule {
  /** How many release points are at or below `count`: the epoch a release at that count is of. */
  index(count: number): number;
  /** The count at which epoch `index` ends. */
  point(index: number): number;
}

/**
 * Release points at every count below 2·perDoubling, then `perDoubling` in each doubling (perDoubling a power of two).
 */
export function geometricSchedule(perDoubling: number): ReleaseSchedule {
  const dense = 2 * perDoubling;
  const denseDoublings = Math.log2(dense);
  return {
    index(count) {
      if (count < dense) return Math.max(0, Math.floor(count));
      const doubling = Math.floor(Math.log2(count));
      const start = 2 ** doubling;
      const spacing = start / perDoubling;
      return dense + perDoubling * (doubling - denseDoublings) + Math.floor((count - start) / spacing);
    },
    point(index) {
      if (index < dense) return index;
      const doubling = denseDoublings + Math.floor((index - dense) / perDoubling);
      const start = 2 ** doubling;
      return start + ((index - dense) % perDoubling) * (start / perDoubling);
    },
  };
}

/** A node of the tree: `level` 0 is one epoch, each level up covers twice as many. */
export interface TreeNode {
  level: number;
  /** Which run of 2^level epochs, from 0: epochs position·2^level + 1 to (position + 1)·2^level. */
  position: number;
}

const LEVEL_BITS = 5;

/** A node as one integer, for storage. */
export function nodeId({ level, position }: TreeNode): number {
  return position * 2 ** LEVEL_BITS + level;
}

export function nodeOf(id: number): TreeNode {
  return { level: id % 2 ** LEVEL_BITS, position: Math.floor(id / 2 ** LEVEL_BITS) };
}

/** The nodes whose runs tile epochs 1 to `index`: one per bit set in `index`, largest first. */
export function prefixNodes(index: number): TreeNode[] {
  const nodes: TreeNode[] = [];
  for (let level = Math.floor(Math.log2(Math.max(1, index))); level >= 0; level -= 1) {
    if (Math.floor(index / 2 ** level) % 2 === 1) nodes.push({ level, position: Math.floor(index / 2 ** level) - 1 });
  }
  return nodes;
}

/** How many nodes tile epochs 1 to `index`: the bits set in it. */
export function prefixSize(index: number): number {
  return prefixNodes(index).length;
}

/** How many levels the prefixes of up to `maxIndex` epochs use: the most nodes any one epoch is counted in. */
export function treeLevels(maxIndex: number): number {
  return Math.floor(Math.log2(maxIndex)) + 1;
}

/**
 * Noisy marginal tables of a contingency table, and the least-squares estimate that makes them
 * agree with each other and with what is known exactly.
 *
 * A table counts records by several attributes (for a question's votes: answer, gender, age band,
 * country), each with `sizes[i]` values; cells are stored row-major, attribute 0 slowest. A
 * marginal keeps the attributes of a bit mask (bit i for attribute i) and sums over the others.
 *
 * The estimate is generalized least squares over every measured marginal, with the invariants (the
 * marginals known exactly, as the US Census's TopDown holds its tables to theirs) held to their
 * exact values. It is worked out in the orthogonal decomposition of the table into residual
 * subspaces, one per set S of attributes (ANOVA; ResidualPlanner, He, Xiao, Toksoz, Ding, Zhang
 * and Kifer, 2023): measuring the marginal M with independent noise of variance σ² per cell gives,
 * in every subspace S ⊆ M, a measurement of precision c_M / σ², where c_M is the number of cells
 * each of M's cells sums. The subspaces do not interact, so the estimate in each is the
 * precision-weighted mean of what measured it, λ_S = Σ_{M ⊇ S} c_M / σ²_M is its precision, and the
 * variance of any count of the estimate has a closed form (`countVariance`).
 */

export interface Measurement {
  /** The attributes the marginal keeps. */
  mask: number;
  /** The marginal's counts plus noise, row-major over its attributes. */
  values: ArrayLike<number>;
  /** The variance of the independent noise in each cell. */
  variance: number;
}

/** A marginal the estimate holds exactly, and so every subspace within it. */
export interface Invariant {
  mask: number;
  values: ArrayLike<number>;
}

/** Whether the residual subspace `subset` lies within one of the invariants' masks, and so is known exactly. */
export function isExact(subset: number, exactMasks: readonly number[]): boolean {
  return exactMasks.some((mask) => (subset & ~mask) === 0);
}

/** The cells of the marginal on `mask` of a table of `sizes`: the whole table's by default. */
export function cellsOf(sizes: readonly number[], mask = (1 << sizes.length) - 1): number {
  let cells = 1;
  for (let i = 0; i < sizes.length; i += 1) if (mask & (1 << i)) cells *= sizes[i];
  return cells;
}

/** Where each cell of the whole table falls in the marginal on `mask`. */
function projection(sizes: readonly number[], mask: number): Int32Array {
  const map = new Int32Array(cellsOf(sizes));
  const index = new Array<number>(sizes.length).fill(0);
  for (let cell = 0; cell < map.length; cell += 1) {
    let target = 0;
    for (let i = 0; i < sizes.length; i += 1) if (mask & (1 << i)) target = target * sizes[i] + index[i];
    map[cell] = target;
    for (let i = sizes.length - 1; i >= 0; i -= 1) {
      index[i] += 1;
      if (index[i] < sizes[i]) break;
      index[i] = 0;
    }
  }
  return map;
}

/** The marginal on `mask` of a whole table: each of its cells the sum of the table's cells that fall in it. */
export function marginalOf(sizes: readonly number[], table: ArrayLike<number>, mask: number): Float64Array {
  const map = projection(sizes, mask);
  const marginal = new Float64Array(cellsOf(sizes, mask));
  for (let cell = 0; cell < map.length; cell += 1) marginal[map[cell]] += table[cell];
  return marginal;
}

function bitCount(mask: number): number {
  let count = 0;
  for (let rest = mask; rest; rest &= rest - 1) count += 1;
  return count;
}

/** Every subset of `mask`. */
function subsetsOf(mask: number): number[] {
  const subsets: number[] = [];
  for (let subset = mask; ; subset = (subset - 1) & mask) {
    subsets.push(subset);
    if (subset === 0) return subsets;
  }
}

/** The precision λ_S of each residual subspace S (indexed by its mask) that the measurements give. */
export function precisions(
  sizes: readonly number[],
  measured: readonly Pick<Measurement, 'mask' | 'variance'>[],
): Float64Array {
  const all = (1 << sizes.length) - 1;
  const lambda = new Float64Array(all + 1);
  for (const { mask, variance } of measured) {
    const summed = cellsOf(sizes, all & ~mask);
    for (const subset of subsetsOf(mask)) lambda[subset] += summed / variance;
  }
  return lambda;
}

/**
 * The variance of a count of the estimate: for each attribute, how many of its values the count
 * takes (`chosen[i]`, from 0 to sizes[i]), the count summing every cell those values make. For a
 * residual S the count's squared length in it is ∏_{i∈S} (m_i − m_i²/n_i) · ∏_{i∉S} m_i²/n_i.
 */
export function countVariance(
  sizes: readonly number[],
  lambda: Float64Array,
  exactMasks: readonly number[],
  chosen: readonly number[],
): number {
  let variance = 0;
  for (let subset = 0; subset < lambda.length; subset += 1) {
    if (isExact(subset, exactMasks)) continue;
    let weight = 1;
    for (let i = 0; i < sizes.length; i += 1) {
      const [m, n] = [chosen[i], sizes[i]];
      weight *= subset & (1 << i) ? m - (m * m) / n : (m * m) / n;
    }
    if (weight <= 1e-12) continue;
    if (!(lambda[subset] > 0)) throw new Error(`No measurement covers the attributes of mask ${subset}`);
    variance += weight / lambda[subset];
  }
  return variance;
}

/** The marginal on `to` (a subset of `from`) of the marginal `values` on `from`. */
function marginalOfMarginal(
  sizes: readonly number[],
  values: ArrayLike<number>,
  from: number,
  to: number,
): Float64Array {
  const kept = sizes.map((_, i) => i).filter((i) => from & (1 << i));
  const result = new Float64Array(cellsOf(sizes, to));
  const index = new Array<number>(kept.length).fill(0);
  for (let cell = 0; cell < values.length; cell += 1) {
    let target = 0;
    kept.forEach((attribute, k) => {
      if (to & (1 << attribute)) target = target * sizes[attribute] + index[k];
    });
    result[target] += values[cell];
    for (let k = kept.length - 1; k >= 0; k -= 1) {
      index[k] += 1;
      if (index[k] < sizes[kept[k]]) break;
      index[k] = 0;
    }
  }
  return result;
}

/**
 * The least-squares estimate of the whole table from noisy marginals and exact ones. In the
 * residual subspaces the invariants fix (S within an invariant's mask) it is exact; in each other
 * one it is the measurements' precision-weighted mean. With u = Σ_M Q_Mᵀ y_M / σ²_M (each
 * measurement spread over the cells it sums) and K_T the mean over the attributes outside T, the
 * projection on S is Σ_{T⊆S} (−1)^{|S−T|} K_T, so the estimate is Σ_T κ_T K_T u + Σ_T η_T K_T x
 * with κ_T = Σ_{S⊇T, S not exact} (−1)^{|S−T|} / λ_S and η_T = Σ_{S⊇T, S exact} (−1)^{|S−T|},
 * K_T x read from an invariant whose mask holds T.
 */
export function estimate(
  sizes: readonly number[],
  measurements: readonly Measurement[],
  invariants: readonly Invariant[],
): Float64Array {
  const all = (1 << sizes.length) - 1;
  const cells = cellsOf(sizes);
  const exactMasks = invariants.map(({ mask }) => mask);
  const lambda = precisions(sizes, measurements);
  const spread = new Float64Array(cells);
  for (const { mask, values, variance } of measurements) {
    const map = projection(sizes, mask);
    for (let cell = 0; cell < cells; cell += 1) spread[cell] += values[map[cell]] / variance;
  }
  const result = new Float64Array(cells);
  const addMean = (marginal: ArrayLike<number>, mask: number, weight: number) => {
    if (weight === 0) return;
    const map = projection(sizes, mask);
    const scale = weight / cellsOf(sizes, all & ~mask);
    for (let cell = 0; cell < cells; cell += 1) result[cell] += marginal[map[cell]] * scale;
  };
  for (let t = 0; t <= all; t += 1) {
    let kappa = 0;
    let eta = 0;
    for (let s = 0; s <= all; s += 1) {
      if ((s & t) !== t) continue;
      const sign = bitCount(s & ~t) % 2 === 0 ? 1 : -1;
      if (isExact(s, exactMasks)) {
        eta += sign;
        continue;
      }
      if (!(lambda[s] > 0)) throw new Error(`No measurement covers the attributes of mask ${s}`);
      kappa += sign / lambda[s];
    }
    addMean(marginalOf(sizes, spread, t), t, kappa);
    const holder = invariants.find(({ mask }) => (t & ~mask) === 0);
    if (holder && eta !== 0) addMean(marginalOfMarginal(sizes, holder.values, holder.mask, t), t, eta);
  }
  return result;
}

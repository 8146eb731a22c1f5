/**
 * The attributes a breakdown release counts votes by, besides the answer, and where a count sits.
 * Votes are counted in blocks, one per country with voters and one over every country, each by
 * gender, age band and answer bucket (blockCell); the release measures and fits tables of answer ×
 * gender × band × country (breakdown-design.ts), whose cells run in that order, the country
 * fastest (tableCell). Both layouts are here, and nowhere else.
 */

/** The genders a voter gives, in the order blocks count them. */
export const GENDERS = ['F', 'M'] as const;

export interface AgeBand {
  min: number;
  max: number;
}

/**
 * The age bands surveys use, in the order blocks count them. The last band is open-ended: its
 * `max` is the largest age a filter accepts.
 */
export const AGE_BANDS: readonly AgeBand[] = [
  { min: 0, max: 17 },
  { min: 18, max: 24 },
  { min: 25, max: 34 },
  { min: 35, max: 44 },
  { min: 45, max: 54 },
  { min: 55, max: 64 },
  { min: 65, max: 999 },
];

/** The cells of a block of `answers` buckets. */
export function blockSize(answers: number): number {
  return GENDERS.length * AGE_BANDS.length * answers;
}

/** Where the votes of one gender, age band and answer bucket are counted in a block. */
export function blockCell(answers: number, gender: number, band: number, bucket: number): number {
  return (gender * AGE_BANDS.length + band) * answers + bucket;
}

/** Where the same votes are in a release's table of answer × gender × band. */
export function tableCell(bucket: number, gender: number, band: number): number {
  return (bucket * GENDERS.length + gender) * AGE_BANDS.length + band;
}

/** Where a cell of that table (tableCell) is for one country, of `countries`, in the table that adds country to it. */
export function countryCell(cell: number, countries: number, country: number): number {
  return cell * countries + country;
}

/** Each cell of a block of `answers` buckets, with where its votes are in a release's table (tableCell). */
export function forEachBlockCell(answers: number, visit: (blockCell: number, tableCell: number) => void): void {
  for (let bucket = 0; bucket < answers; bucket += 1)
    for (let gender = 0; gender < GENDERS.length; gender += 1)
      for (let band = 0; band < AGE_BANDS.length; band += 1)
        visit(blockCell(answers, gender, band, bucket), tableCell(bucket, gender, band));
}

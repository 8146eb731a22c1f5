import { describe, expect, it } from 'vitest';
import { associationIn, type TestedAssociation } from './association.js';

/** A test's outcome as the release keeps it; the summary is written for each reader. */
const tested = (reading: TestedAssociation['reading']): TestedAssociation => ({
  association: {
    n: 1234,
    chi_square: 50,
    df: 2,
    p_value: 0.001,
    cramers_v: 0.4,
    significant: true,
    strength: 'strong',
  },
  reading,
  test: {} as TestedAssociation['test'],
});

describe("the association's summary", () => {
  it('reads in English as it always has', () => {
    const choice = tested({ kind: 'choice', row: 'Morning', column: 'Coffee', rowPercent: 62, othersPercent: 30 });
    expect(associationIn(choice, 'en').summary).toBe(
      '"Morning" voters chose "Coffee" 62% of the time, against 30% of the others who answered both: a strong link.',
    );
    expect(associationIn(tested({ kind: 'unlinked', people: 1234 }), 'en').summary).toBe(
      'No clear link: among the about 1,234 people who answered both, answers to the first question look much the same whatever they answered to the second.',
    );
  });

  it("is written in the reader's language, with its numbers", () => {
    const average = tested({ kind: 'average', row: 'Morgens', rowMean: 6.25, othersMean: 4.5 });
    expect(associationIn(average, 'de').summary).toBe(
      'Wer „Morgens“ gewählt hat, gab im Schnitt 6,25, gegenüber 4,5 bei den anderen, die beide Fragen beantwortet haben: ein starker Zusammenhang.',
    );
    expect(associationIn(tested({ kind: 'unreliable', people: 1234 }), 'ja').summary).toContain('約1,234人');
  });
});

import { AGE_GROUPS, GROUPS, REGIONS, type PlannedQuestion } from './community-plan.js';
import { randomStream, type Random } from './random.js';

/** How one question's voters answer: per voter group, the running shares of its values. */
export interface ChoiceModel {
  min: number;
  /** How many values a vote may take (min, min + 1, …). */
  values: number;
  /** GROUPS rows of `values` running shares each. */
  cumulative: Float64Array;
}

/**
 * The pair's second question follows the first for this share of its voters (exercise often,
 * rate one's health good…); the others answer it by their group like any question.
 */
const PAIR_FOLLOWS_SHARE = 0.55;
/** The second question's answer (Good 1, Fair 2, Poor 3) for each answer to the first (Never…Often). */
const PAIR_SECOND_FOR_FIRST = [3, 2, 1, 1];

function groupParts(group: number): { genderSign: number; age: number; region: number } {
  return {
    genderSign: Math.floor(group / (AGE_GROUPS * REGIONS)) === 0 ? 1 : -1,
    // -1 for the youngest group, 1 for the oldest.
    age: ((Math.floor(group / REGIONS) % AGE_GROUPS) / (AGE_GROUPS - 1)) * 2 - 1,
    region: group % REGIONS,
  };
}

/** How strongly a question's answers follow the voter's group: one standard normal per effect, scaled. */
interface Effects {
  base: number;
  gender: number;
  age: number;
  regions: number[];
}

function drawEffects(random: Random, strength: number): Effects {
  return {
    base: 0.8 * random.normal(),
    gender: strength * 0.4 * random.normal(),
    age: strength * 0.6 * random.normal(),
    regions: Array.from({ length: REGIONS }, () => strength * 0.4 * random.normal()),
  };
}

function leaning(effects: Effects, group: number): number {
  const { genderSign, age, region } = groupParts(group);
  return effects.base + effects.gender * genderSign + effects.age * age + effects.regions[region];
}

/** The question's model, drawn from its own stream: the same every time it is asked for. */
export function choiceModel(seed: number, question: PlannedQuestion): ChoiceModel {
  const random = randomStream(seed, `model:${question.index}`);
  const values = question.max - question.min + 1;
  const strength = question.role === 'big' ? 1.6 : 1;
  // MC: one leaning per choice, turned into shares by softmax. RS and N: one leaning for the
  // group's typical value, the shares falling off around it.
  const effects =
    question.type === 'MC'
      ? Array.from({ length: values }, () => drawEffects(random, strength))
      : [drawEffects(random, strength)];
  const cumulative = new Float64Array(GROUPS * values);
  for (let group = 0; group < GROUPS; group += 1) {
    const weights =
      question.type === 'MC'
        ? effects.map((choice) => Math.exp(leaning(choice, group)))
        : Array.from({ length: values }, (_, value) => {
            const typical = 1 / (1 + Math.exp(-leaning(effects[0], group)));
            const position = values === 1 ? 0 : value / (values - 1);
            return Math.exp(-(((position - typical) / 0.2) ** 2) / 2);
          });
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    let running = 0;
    for (let value = 0; value < values; value += 1)
      cumulative[group * values + value] = running += weights[value] / total;
  }
  return { min: question.min, values, cumulative };
}

export function drawChoice(model: ChoiceModel, group: number, random: Random): number {
  return model.min + random.fromCumulative(model.cumulative, group * model.values, model.values);
}

/** The pair's second answer of a voter who answered `first` to the first question. */
export function drawPairSecond(model: ChoiceModel, group: number, first: number, random: Random): number {
  return random.next() < PAIR_FOLLOWS_SHARE ? PAIR_SECOND_FOR_FIRST[first - 1] : drawChoice(model, group, random);
}

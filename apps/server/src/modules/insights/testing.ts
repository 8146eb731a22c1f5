import { answerBodySchema, api, questionSchema } from '@pollscope/contract';
import { expect } from 'vitest';
import type { ZodType } from 'zod';
import { signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { currentYear } from './ages.js';

export const US = 840;
export const FRANCE = 250;
export const JAPAN = 392;
export const BRAZIL = 76;
export const GERMANY = 276;
export const INDIA = 356;

export interface Person {
  gender: 'F' | 'M';
  /** The age reached this year. */
  age: number;
  country: number;
}

/** Registers someone who reaches `age` this year: born on 1 January, so their age today is that too. */
export function signUpAs(ctx: TestContext, person: Person): Promise<TestUser> {
  return signUp(ctx, { gender: person.gender, birthDate: `${currentYear() - person.age}-01-01`, livingIn: person.country });
}

/** `count` people alike. */
export function many(count: number, person: Person): Person[] {
  return Array.from({ length: count }, () => ({ ...person }));
}

/** Each person answers the question with the choice given for them (by index, cycling). */
export async function answerAll(voters: TestUser[], questionId: number, choices: number[]): Promise<void> {
  for (const [index, voter] of voters.entries()) {
    await voter.api.post(api.answer(questionId), answerBodySchema, { choice: choices[index % choices.length] }, questionSchema);
  }
}

/** A seeded pseudo-random source (mulberry32): the same seed gives the same community every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32;
  };
}

function daysIntoYear(now = new Date()): number {
  return Math.floor((now.getTime() - Date.UTC(now.getUTCFullYear(), 0, 1)) / 86_400_000);
}

export interface GeneratedVoter extends Person {
  user: TestUser;
}

/**
 * `size` people of random gender, age (15 to 89 this year, more of them young) and country (the
 * first of `countries` the most common, each next one about half as common), registered through
 * the API with a random birth date in their birth year.
 */
export async function generateCommunity(ctx: TestContext, random: () => number, size: number, countries: number[]): Promise<GeneratedVoter[]> {
  const weights = countries.map((_, index) => 2 ** -index);
  const totalWeight = weights.reduce((sum, weight) => sum + weight, 0);
  const countryOf = (draw: number) => {
    let left = draw * totalWeight;
    return countries.find((_, index) => (left -= weights[index]) < 0) ?? countries[countries.length - 1];
  };
  const voters: GeneratedVoter[] = [];
  for (let index = 0; index < size; index += 1) {
    const person: Person = { gender: random() < 0.5 ? 'F' : 'M', age: 15 + Math.floor(random() ** 1.5 * 75), country: countryOf(random()) };
    // A birthday no later in the year than today, so that they are that age already.
    const birthday = new Date(Date.UTC(currentYear() - person.age, 0, 1 + Math.floor(random() * (daysIntoYear() + 1))));
    const user = await signUp(ctx, { gender: person.gender, birthDate: birthday.toISOString().slice(0, 10), livingIn: person.country });
    voters.push({ ...person, user });
  }
  return voters;
}

/** The fields of each line of a CSV download (RFC 4180: quoted fields, doubled quotes, CRLF line ends). */
export function parseCsv(text: string): string[][] {
  const lines: string[][] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted && char === '"' && text[index + 1] === '"') {
      field += '"';
      index += 1;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === ',') {
      fields.push(field);
      field = '';
    } else if (!quoted && char === '\r' && text[index + 1] === '\n') {
      lines.push([...fields, field]);
      fields = [];
      field = '';
      index += 1;
    } else {
      field += char;
    }
  }
  return lines;
}

/** Parsing with a response's schema keeps only the fields it declares: nothing is left out only if nothing undeclared was sent. */
export function expectOnlyDeclared(schema: ZodType, body: unknown): void {
  expect(schema.parse(body)).toEqual(body);
}

/** A filter as the query string of a download. */
export function queryString(filter: Record<string, string | number>): string {
  return new URLSearchParams(Object.entries(filter).map(([name, value]) => [name, String(value)])).toString();
}

/** Votes per answer, by the answer's label in a download. */
export type LabelledVotes = Record<string, number>;

export interface DownloadGroup {
  votes: LabelledVotes;
  everyone: LabelledVotes;
}

/**
 * The groups of a CSV download by the value of `labelColumn` (one group, labelled '', when null),
 * in order: their votes and everyone's per answer, or null for a group too few voters match.
 */
export function downloadGroups(text: string, labelColumn: string | null): Map<string, DownloadGroup | null> {
  const [header, ...lines] = parseCsv(text);
  const column = (name: string) => header.indexOf(name);
  const groups = new Map<string, DownloadGroup | null>();
  for (const line of lines) {
    const label = labelColumn === null ? '' : line[column(labelColumn)];
    if (line[column('note')] !== '') {
      groups.set(label, null);
      continue;
    }
    const answer = line[column('answer')];
    if (answer === 'average') continue;
    const group = groups.get(label) ?? { votes: {}, everyone: {} };
    group.votes[answer] = Number(line[column('votes')]);
    group.everyone[answer] = Number(line[column('everyone_votes')]);
    groups.set(label, group);
  }
  return groups;
}

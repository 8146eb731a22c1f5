import { api } from '@pollscope/contract';
import { signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { currentYear } from './ages.js';

export const US = 840;
export const FRANCE = 250;
export const JAPAN = 392;

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
    const reply = await voter.api.post(api.answer(questionId), { choice: choices[index % choices.length] });
    if (reply.status !== 200) throw new Error(`vote failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  }
}

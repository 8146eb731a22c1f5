import type { Db } from '../db/index.js';
import { searchName } from '../lib/search-text.js';
import { hashPassword } from '../modules/auth/passwords.js';
import { createQuestion, recordVote, setLiked } from '../modules/polls/questions.js';
import { setFollowing } from '../modules/social/users.js';
import type { Voter } from '../views/viewer-states.js';
import { SYSTEM_EMAIL } from './reference.js';

export const DEMO_LOGIN = { email: 'demo@pollscope.app', password: 'pollscope-demo' };

const PEOPLE = [
  { name: 'Demo', gender: 'F', birthdate: '1992-05-14', country: 826 },
  { name: 'Ada', gender: 'F', birthdate: '1988-12-10', country: 826 },
  { name: 'Ben', gender: 'M', birthdate: '1979-03-02', country: 840 },
  { name: 'Chloe', gender: 'F', birthdate: '2001-07-21', country: 250 },
  { name: 'Diego', gender: 'M', birthdate: '1995-11-30', country: 724 },
] as const;

const COUNTRIES = [840, 826, 250, 276, 724, 380, 124, 36, 392, 76];

const QUESTIONS = [
  { author: 1, type: 'MC', question: 'Will remote work still be the norm in ten years?', choices: ['Yes', 'No', 'Only in tech'], tags: ['work'], category: 10 },
  { author: 2, type: 'RS', question: 'How much do you enjoy cooking at home?', choices: [], tags: ['cooking'], category: 7 },
  { author: 3, type: 'N', question: 'How many books did you read last year?', choices: ['0', '100'], tags: ['books'], category: 11 },
  { author: 1, type: 'MC', question: 'Which do you prefer for a holiday?', choices: ['Beach', 'Mountains', 'City', 'Countryside'], tags: ['travel'], category: 8 },
  { author: 2, type: 'MC', question: 'Do you follow a sports team?', choices: ['Yes', 'No'], tags: ['sport'], category: 2 },
  { author: 4, type: 'MC', question: 'Should schools teach programming from age 8?', choices: ['Yes', 'No'], tags: ['school'], category: 11 },
] as const;

/** A small deterministic generator, so every fresh demo community looks the same. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/**
 * A small community for a fresh install: five named people and forty voters, with questions of
 * each kind, follows, votes and likes, all through the same code paths as the API.
 * Runs only on a database with no people yet.
 */
export async function seedDemoCommunity(db: Db, hashCost: number): Promise<typeof DEMO_LOGIN | null> {
  const existing = await db.selectFrom('users').select('id').where('email', '!=', SYSTEM_EMAIL).limit(1).executeTakeFirst();
  if (existing) return null;
  const passwordHash = await hashPassword(DEMO_LOGIN.password, hashCost);
  const next = random(42);
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    const people: Voter[] = [];
    const addPerson = async (email: string, name: string, gender: 'F' | 'M', birthdate: string, country: number) => {
      const { id } = await trx
        .insertInto('users')
        .values({
          email,
          password_hash: passwordHash,
          first_name: name,
          search_name: searchName(name),
          birthdate,
          birth_year: Number(birthdate.slice(0, 4)),
          gender,
          country_id: country,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      people.push({ id, gender, birth_year: Number(birthdate.slice(0, 4)), country_id: country });
    };
    for (const person of PEOPLE) {
      const email = person.name === 'Demo' ? DEMO_LOGIN.email : `${person.name.toLowerCase()}@pollscope.app`;
      await addPerson(email, person.name, person.gender, person.birthdate, person.country);
    }
    for (let index = 1; index <= 40; index += 1) {
      const year = 1950 + Math.floor(next() * 55);
      const gender = next() < 0.5 ? 'F' : 'M';
      await addPerson(`voter${index}@pollscope.app`, `Voter ${index}`, gender, `${year}-0${1 + Math.floor(next() * 9)}-15`, COUNTRIES[Math.floor(next() * COUNTRIES.length)]);
    }
    const [demo] = people;
    for (const followee of people.slice(1, 4)) await setFollowing(trx, demo.id, followee.id, true);

    for (const spec of QUESTIONS) {
      const { questionId } = await createQuestion(trx, people[spec.author].id, {
        type: spec.type,
        question: spec.question,
        choices: [...spec.choices],
        tags: [...spec.tags],
        category: spec.category,
      });
      for (const voter of people.slice(5)) {
        if (next() < 0.2) continue;
        const choice =
          spec.type === 'MC'
            ? 1 + Math.floor(next() * (voter.gender === 'F' ? spec.choices.length : Math.max(2, spec.choices.length - 1)))
            : spec.type === 'RS'
              ? 1 + Math.floor(next() * 10)
              : Math.floor(next() * 40);
        await recordVote(trx, { id: questionId }, voter, choice);
        if (next() < 0.3) await setLiked(trx, voter.id, questionId, true);
      }
    }
  });
  return DEMO_LOGIN;
}

import type { ChangeMade } from '../changes/change.js';
import { countWithoutTelling } from './counted.js';
import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';
import type { Db } from '../db/index.js';
import { SYSTEM_EMAIL } from '../db/schema.js';
import { searchName } from '../lib/search-text.js';
import { createQuestion } from '../modules/polls/index.js';

const require = createRequire(import.meta.url);
countries.registerLocale(require('i18n-iso-countries/langs/en.json'));

export const CATEGORY_NAMES = [
  'Politics',
  'Sports',
  'Technology',
  'Entertainment',
  'Science',
  'Health',
  'Food & Drink',
  'Travel',
  'Lifestyle',
  'Business',
  'Education',
  'Relationships',
];

const QUIZ = [
  {
    question: 'Which planet is known as the Red Planet?',
    choices: ['Venus', 'Mars', 'Jupiter', 'Saturn'],
    answer: 2,
    category: 'Science',
  },
  {
    question: 'How do you like to spend a free evening?',
    choices: ['At home', 'Out with friends', 'Outdoors', 'On a hobby'],
    answer: null,
    category: 'Lifestyle',
  },
  {
    question: 'How many sides does a hexagon have?',
    choices: ['Five', 'Six', 'Eight'],
    answer: 2,
    category: 'Education',
  },
  { question: 'Coffee or tea?', choices: ['Coffee', 'Tea'], answer: null, category: 'Food & Drink' },
];

/** Countries (ISO 3166-1, numeric code as id), categories and the quiz; each only when missing. */
export async function seedReferenceData(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const hasCountries = await trx.selectFrom('countries').select('id').limit(1).executeTakeFirst();
    if (!hasCountries) {
      const rows = Object.entries(countries.getNumericCodes()).map(([numeric, alpha2]) => ({
        id: Number(numeric),
        code: alpha2,
        name: countries.getName(alpha2, 'en') ?? alpha2,
      }));
      await trx.insertInto('countries').values(rows).execute();
    }
    const hasCategories = await trx.selectFrom('categories').select('id').limit(1).executeTakeFirst();
    if (!hasCategories) {
      await trx
        .insertInto('categories')
        .values(CATEGORY_NAMES.map((name, index) => ({ id: index + 1, name })))
        .execute();
    }
    const hasQuiz = await trx.selectFrom('quiz_items').select('id').limit(1).executeTakeFirst();
    if (!hasQuiz) {
      const systemUserId = await systemUser(trx);
      const asked: ChangeMade[] = [];
      for (const item of QUIZ) {
        const question = await createQuestion(trx, systemUserId, {
          type: 'MC',
          question: item.question,
          choices: item.choices,
          tags: ['quiz'],
          category: CATEGORY_NAMES.indexOf(item.category) + 1,
        });
        asked.push(question);
        await trx
          .insertInto('quiz_items')
          .values({ question_id: question.questionId, answer: item.answer, strict: item.answer === null ? 0 : 1 })
          .execute();
      }
      await countWithoutTelling(trx, asked);
    }
  });
}

async function systemUser(trx: Db): Promise<number> {
  const existing = await trx.selectFrom('users').select('id').where('email', '=', SYSTEM_EMAIL).executeTakeFirst();
  if (existing) return existing.id;
  const row = await trx
    .insertInto('users')
    .values({
      email: SYSTEM_EMAIL,
      password_hash: '!',
      first_name: 'Pollscope',
      search_name: searchName('Pollscope'),
      birthdate: '2020-01-01',
      birth_year: 2020,
      gender: 'F',
      country_id: 840,
      created_at: new Date().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

import { api, questionPageSchema } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPostgresUrl } from '../../test/postgres.js';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';

let ctx: TestContext;
let author: TestUser;
let reader: TestUser;
beforeAll(async () => {
  ctx = await createTestApp();
  author = await signUp(ctx);
  reader = await signUp(ctx);
});
afterAll(() => ctx.close());

async function found(q: string): Promise<number[]> {
  return (await reader.api.get(`${api.search(q)}&limit=100`, questionPageSchema)).questions.map(
    (question) => question.id,
  );
}

/** Made-up words, so that no other question matches, beside the words each language stems. */
describe('search in the questions’ languages', () => {
  it('finds words as typed, and the start of the last one, whatever the language', async () => {
    const german = await ask(author, {
      question: 'Schlafen Quorbel-Katzen gern?',
      choices: ['Ja', 'Nein'],
      language: 'de',
    });
    const japanese = await ask(author, { question: 'Quorbel 猫 と 犬', choices: ['猫', '犬'], language: 'ja' });
    expect(await found('quorbel katzen')).toEqual([german]);
    expect(await found('quorbel katz')).toEqual([german]);
    expect(await found('quorbel 猫')).toEqual([japanese]);
  });

  it.runIf(testPostgresUrl !== null)(
    'stems each question’s words by its language’s text search configuration on PostgreSQL',
    async () => {
      const german = await ask(author, {
        question: 'Schlafen Zimblor-Katzen gern?',
        choices: ['Ja', 'Nein'],
        language: 'de',
      });
      const english = await ask(author, {
        question: 'Are Zimblor shoes good for running?',
        choices: ['Yes', 'No'],
        language: 'en',
      });
      const french = await ask(author, {
        question: 'Les chevaux Zimblor mangent-ils des pommes ?',
        choices: ['Oui', 'Non'],
        language: 'fr',
      });
      // German "Katze" and "Katzen", English "runs" and "running", French "pomme" and "pommes": one stem each.
      expect(await found('zimblor katze')).toEqual([german]);
      expect(await found('zimblor runs')).toEqual([english]);
      expect(await found('zimblor pomme')).toEqual([french]);
      // Words as typed still match, the start of the last one too.
      expect(await found('zimblor running')).toEqual([english]);
      expect(await found('zimblor runni')).toEqual([english]);
    },
  );
});

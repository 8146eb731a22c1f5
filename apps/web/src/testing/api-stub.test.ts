import { describe, expect, it } from 'vitest';
import { stubApi } from './api-stub';
import { makeQuestion } from './factories';

describe('the API stub', () => {
  it('refuses a reply the contract does not allow, naming what is missing', () => {
    const { on } = stubApi();
    const first = makeQuestion({ id: 1, qid: 1 });
    const second = makeQuestion({ id: 2, qid: 2 });
    expect(() =>
      // @ts-expect-error A relate pair always says how it was released.
      on('GET /api/polls/relate/:a/:b/', { body: { first, second, association: null, choices: [] } }),
    ).toThrow(/privacy/);
    expect(() => on('POST /api/login/', { status: 400, body: { errors: {} } as never })).toThrow(/message/);
  });

  it('answers the requests of its route that `where` names, the latest stub first, and any other with a 404', async () => {
    const { on } = stubApi();
    on('GET /api/polls/stats/:user/', { status: 404, body: { message: 'No such person' } });
    on(
      'GET /api/polls/stats/:user/',
      {
        body: {
          id: 4,
          name: 'Ben',
          question: 2,
          answer: 5,
          like: 1,
          blocked: false,
          connected: false,
          birthdate: '1988-02-03',
          livein: 'Ireland',
        },
      },
      { params: { user: 4 } },
    );
    expect(await (await fetch('/api/polls/stats/4/')).json()).toMatchObject({ name: 'Ben' });
    expect((await fetch('/api/polls/stats/5/')).status).toBe(404);
    expect((await fetch('/api/polls/stats/4/', { method: 'POST' })).status).toBe(404);
    expect((await fetch('/api/polls/stats/')).status).toBe(404);
  });
});

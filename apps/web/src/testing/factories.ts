import type { Question } from '@pollscope/contract';

/** A question as the API sends it: an open multiple-choice poll unless told otherwise. */
export function makeQuestion(overrides: Partial<Question> = {}): Question {
  return {
    id: 7,
    qid: 7,
    type: 'MC',
    title: 'Tea or coffee?',
    category: { id: 7, name: 'Food & Drink' },
    choices: [
      { key: 1, value: 'Tea' },
      { key: 2, value: 'Coffee' },
    ],
    result: null,
    answer: null,
    tags: [{ name: 'drinks' }],
    published_at: '2026-05-04T10:00:00.000Z',
    user: 12,
    user_name: 'Ada',
    like_count: 3,
    vote_count: 9,
    liked: false,
    passed: false,
    owner: false,
    ...overrides,
  };
}

/** The same question after the viewer voted for the given choice. */
export function answered(question: Question, choice: number, answers: { key: number; percent: number }[]): Question {
  return { ...question, answer: { choice }, result: { count: question.vote_count + 1, answers }, vote_count: question.vote_count + 1 };
}

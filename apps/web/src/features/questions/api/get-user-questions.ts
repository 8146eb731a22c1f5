import { apiPath } from '../../../lib/api-path';
import { forgetQuestionPages, useQuestionPages } from './question-pages';

/** Which of a person's questions: those they asked, answered or liked. */
export type UserListKind = 'asked' | 'answered' | 'liked';

const myLists = {
  asked: '/api/polls/user/questions/',
  answered: '/api/polls/user/answered/',
  liked: '/api/polls/user/liked/',
} as const;
const userLists = {
  asked: '/api/polls/user/:user/questions/',
  answered: '/api/polls/user/:user/answered/',
  liked: '/api/polls/user/:user/liked/',
} as const;

/** The viewer's own lists when no user is given, another person's otherwise. */
export function userQuestionsKey(kind: UserListKind, user?: string | number) {
  return user === undefined ? apiPath(myLists[kind]) : apiPath(userLists[kind], { params: { user } });
}

/** The viewer's own questions, after they asked another. */
export const forgetMyQuestions = () => forgetQuestionPages(userQuestionsKey('asked'));

export function useUserQuestions(kind: UserListKind, user?: string | number) {
  return useQuestionPages(userQuestionsKey(kind, user));
}

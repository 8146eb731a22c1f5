import { api } from '@pollscope/contract';
import { forgetQuestionPages, useQuestionPages } from './question-pages';

/** Which of a person's questions: those they asked, answered or liked. */
export type UserListKind = 'asked' | 'answered' | 'liked';

/** The viewer's own lists when no user is given, another person's otherwise. */
export function userQuestionsKey(kind: UserListKind, user?: string | number): string {
  if (user === undefined) return { asked: api.myQuestions, answered: api.myAnswered, liked: api.myLiked }[kind];
  return { asked: api.userQuestions, answered: api.userAnswered, liked: api.userLiked }[kind](user);
}

/** The viewer's own questions, after they asked another. */
export const forgetMyQuestions = () => forgetQuestionPages(api.myQuestions);

export function useUserQuestions(kind: UserListKind, user?: string | number) {
  return useQuestionPages(userQuestionsKey(kind, user));
}

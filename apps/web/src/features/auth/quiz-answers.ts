/** The visitor's quiz answers, kept for this tab until they register with them. */
const QUIZ_ANSWERS_KEY = 'pollscope.quiz';

export interface QuizAnswer {
  question: number;
  choice: number;
}

export function readQuizAnswers(): QuizAnswer[] {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(QUIZ_ANSWERS_KEY) ?? '[]');
    return Array.isArray(stored) ? (stored as QuizAnswer[]) : [];
  } catch {
    return [];
  }
}

/** Records an answer, replacing an earlier one to the same question. */
export function saveQuizAnswer(answer: QuizAnswer): void {
  const others = readQuizAnswers().filter((saved) => saved.question !== answer.question);
  sessionStorage.setItem(QUIZ_ANSWERS_KEY, JSON.stringify([...others, answer]));
}

export function clearQuizAnswers(): void {
  sessionStorage.removeItem(QUIZ_ANSWERS_KEY);
}

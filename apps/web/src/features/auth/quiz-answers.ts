import type { Question } from '@pollscope/contract';
import type { IntlShape } from 'react-intl';
import type { MessageId } from '../../i18n/i18n-provider';

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

/**
 * The quiz's questions and answers in the reader's language. The quiz is the app's own (the
 * server's seed writes it in English), so its words are the catalogs'; what is sent stays the
 * same, as the answers go by their keys. A text the table lacks is shown as it came.
 */
const quizTexts: Record<string, MessageId> = {
  'Which planet is known as the Red Planet?': 'quiz.item.redPlanet',
  Venus: 'quiz.item.redPlanet.venus',
  Mars: 'quiz.item.redPlanet.mars',
  Jupiter: 'quiz.item.redPlanet.jupiter',
  Saturn: 'quiz.item.redPlanet.saturn',
  'How do you like to spend a free evening?': 'quiz.item.freeEvening',
  'At home': 'quiz.item.freeEvening.atHome',
  'Out with friends': 'quiz.item.freeEvening.withFriends',
  Outdoors: 'quiz.item.freeEvening.outdoors',
  'On a hobby': 'quiz.item.freeEvening.hobby',
  'How many sides does a hexagon have?': 'quiz.item.hexagon',
  Five: 'quiz.item.hexagon.five',
  Six: 'quiz.item.hexagon.six',
  Eight: 'quiz.item.hexagon.eight',
  'Coffee or tea?': 'quiz.item.coffeeOrTea',
  Coffee: 'quiz.item.coffeeOrTea.coffee',
  Tea: 'quiz.item.coffeeOrTea.tea',
};

/** A quiz question with its title and choices in the reader's language; its id and choice keys as they are. */
export function translatedQuizQuestion<Shown extends Pick<Question, 'title' | 'choices'>>(
  intl: IntlShape,
  question: Shown,
): Shown {
  const say = (text: string) => (Object.hasOwn(quizTexts, text) ? intl.formatMessage({ id: quizTexts[text] }) : text);
  return {
    ...question,
    title: say(question.title),
    choices: Array.isArray(question.choices)
      ? question.choices.map((choice) => ({ ...choice, value: say(choice.value) }))
      : question.choices,
  };
}

import type { Question } from '@pollscope/contract';
import type { IntlShape } from 'react-intl';
import type { MessageId } from '../../i18n/i18n-provider';

interface SeededQuestion {
  title: MessageId;
  /** Each choice's message, by its English text. */
  choices: Record<string, MessageId>;
}

/**
 * The quiz the server seeds, in English (`QUIZ` in apps/server/src/seed/reference.ts), by each
 * question's English title: the app's own words, so the catalogs have them in every language.
 */
const seededQuiz: Record<string, SeededQuestion> = {
  'Which planet is known as the Red Planet?': {
    title: 'quiz.item.redPlanet',
    choices: {
      Venus: 'quiz.item.redPlanet.venus',
      Mars: 'quiz.item.redPlanet.mars',
      Jupiter: 'quiz.item.redPlanet.jupiter',
      Saturn: 'quiz.item.redPlanet.saturn',
    },
  },
  'How do you like to spend a free evening?': {
    title: 'quiz.item.freeEvening',
    choices: {
      'At home': 'quiz.item.freeEvening.atHome',
      'Out with friends': 'quiz.item.freeEvening.withFriends',
      Outdoors: 'quiz.item.freeEvening.outdoors',
      'On a hobby': 'quiz.item.freeEvening.hobby',
    },
  },
  'How many sides does a hexagon have?': {
    title: 'quiz.item.hexagon',
    choices: { Five: 'quiz.item.hexagon.five', Six: 'quiz.item.hexagon.six', Eight: 'quiz.item.hexagon.eight' },
  },
  'Coffee or tea?': {
    title: 'quiz.item.coffeeOrTea',
    choices: { Coffee: 'quiz.item.coffeeOrTea.coffee', Tea: 'quiz.item.coffeeOrTea.tea' },
  },
};

/**
 * A quiz question in the reader's language when it is one the server seeds; its id and choice
 * keys as they are, since the answers go by them. Any other question, or a choice the seed does
 * not have, is shown as it came.
 */
export function translatedQuizQuestion<Shown extends Pick<Question, 'title' | 'choices'>>(
  intl: IntlShape,
  question: Shown,
): Shown {
  const seeded = Object.hasOwn(seededQuiz, question.title) ? seededQuiz[question.title] : undefined;
  if (!seeded) return question;
  const choiceText = (text: string) =>
    Object.hasOwn(seeded.choices, text) ? intl.formatMessage({ id: seeded.choices[text] }) : text;
  return {
    ...question,
    title: intl.formatMessage({ id: seeded.title }),
    choices: Array.isArray(question.choices)
      ? question.choices.map((choice) => ({ ...choice, value: choiceText(choice.value) }))
      : question.choices,
  };
}

import type { Settings } from '@pollscope/contract';
import { useState } from 'react';
import { interfaceLanguages, useReaderLanguage } from '../../../lib/question-shape';

/** The languages of questions the settings form offers and the person's choice among them: null for all. */
export function useQuestionLanguages(saved: Settings) {
  const readerLanguage = useReaderLanguage();
  const [chosen, setChosen] = useState(saved.question_languages);

  // The interface's languages, then any other the person chose (from elsewhere, or before).
  const offered = [...new Set([...interfaceLanguages, ...(saved.question_languages ?? []), ...(chosen ?? [])])];

  function onlySome(only: boolean) {
    // The reader's own language is the likeliest first choice.
    setChosen(only ? (saved.question_languages ?? [readerLanguage]) : null);
  }

  function toggle(code: string, on: boolean) {
    setChosen((current) => {
      const picked = new Set(current ?? []);
      if (on) picked.add(code);
      else picked.delete(code);
      return offered.filter((offer) => picked.has(offer));
    });
  }

  return { chosen, setChosen, offered, onlySome, toggle };
}

export type QuestionLanguages = ReturnType<typeof useQuestionLanguages>;

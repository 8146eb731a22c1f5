import type { Question } from '@pollscope/contract';
import { useState } from 'react';
import { useErrorText } from '../../../hooks/use-error-text';
import { ApiError } from '../../../lib/api-client';
import { answerQuestion } from '../api/answer-question';
import { useLiveResult } from '../api/get-live-result';

/**
 * The question a card shows and the ways it changes there: a vote, a like, a hide, and the live
 * result others move. Every change is handed to `onChange` so the cached list stays current.
 */
export function useCardQuestion(loaded: Question, onScreen: boolean, onChange?: (question: Question) => void) {
  const errorText = useErrorText();
  // The card shows its own vote and like at once; a fresh copy from the list replaces them.
  const [question, setQuestion] = useState(loaded);
  const [loadedSeen, setLoadedSeen] = useState(loaded);
  if (loaded !== loadedSeen) {
    setLoadedSeen(loaded);
    setQuestion(loaded);
  }
  const [voting, setVoting] = useState(false);
  const [voteError, setVoteError] = useState<string | null>(null);

  function update(updated: Question) {
    setQuestion(updated);
    onChange?.(updated);
  }

  // A result on screen follows the votes and likes others cast.
  useLiveResult(question.id, question.result !== null && onScreen, (live) => {
    update({
      ...question,
      result: live.result ?? question.result,
      vote_count: live.result?.count ?? question.vote_count,
      like_count: live.like_count,
    });
  });

  async function vote(choice: number) {
    setVoting(true);
    setVoteError(null);
    const result = await answerQuestion(question.id, choice);
    setVoting(false);
    if (result instanceof ApiError) {
      setVoteError(errorText(result));
      return;
    }
    update(result);
  }

  function changeLike(liked: boolean) {
    update({ ...question, liked, like_count: Math.max(0, question.like_count + (liked ? 1 : -1)) });
  }

  function changePassed(passed: boolean) {
    setQuestion((current) => ({ ...current, passed }));
  }

  return { question, voting, voteError, vote, changeLike, changePassed };
}

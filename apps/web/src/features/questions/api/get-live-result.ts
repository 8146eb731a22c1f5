import { api, LIVE_RESULT_EVENT, type LiveResult } from '@pollscope/contract';
import { useEffect, useEffectEvent } from 'react';
import { watchEventStream } from '../../../lib/live-stream';

/**
 * Follows a question's result as votes and likes arrive, while `enabled` (its result is on
 * screen), and hands each new state to `onResult`.
 */
export function useLiveResult(questionId: number, enabled: boolean, onResult: (live: LiveResult) => void): void {
  const deliver = useEffectEvent(onResult);
  useEffect(() => {
    if (!enabled) return;
    return watchEventStream(api.live(questionId), (event) => {
      if (event.event === LIVE_RESULT_EVENT) deliver(JSON.parse(event.data) as LiveResult);
    });
  }, [questionId, enabled]);
}

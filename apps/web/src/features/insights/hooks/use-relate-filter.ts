import type { RelatePair, RelateResult } from '@pollscope/contract';
import { useState } from 'react';
import { useErrorText } from '../../../hooks/use-error-text';
import { ApiError } from '../../../lib/api-client';
import { filterRelate } from '../api/filter-relate';

/** The choice of the second question picked, and the first's result among that choice's voters. */
export function useRelateFilter(data: RelatePair | undefined) {
  const errorText = useErrorText();
  const [choice, setChoice] = useState<number | null>(null);
  const [filtered, setFiltered] = useState<RelateResult | null>(null);
  const [filterError, setFilterError] = useState<string | null>(null);
  const [pending, setPending] = useState<number | null>(null);

  async function pick(key: number) {
    if (!data) return;
    setChoice(key);
    setPending(key);
    setFilterError(null);
    const result = await filterRelate(data.first.id, data.second.id, key);
    setPending(null);
    if (result instanceof ApiError) {
      setFiltered(null);
      setFilterError(errorText(result));
    } else {
      setFiltered(result);
    }
  }

  return { choice, filtered, filterError, pending, pick };
}

export type RelateFilter = ReturnType<typeof useRelateFilter>;

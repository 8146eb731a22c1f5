import type { BreakdownFilterBody, BreakdownInfo, BreakdownResult, SplitGroup } from '@pollscope/contract';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { filterBreakdown } from '../api/filter-breakdown';

/**
 * The breakdown's filter: asked from the form or by picking a group from the splits, and the
 * result of the last one asked, scrolled to when it came from a group picked far above it.
 */
export function useBreakdownFilter(data: BreakdownInfo | undefined) {
  const [filtered, setFiltered] = useState<BreakdownResult | null>(null);
  const [filterError, setFilterError] = useState(false);
  const [pending, setPending] = useState(false);
  /** The group picked from the splits, whose filter the form shows; null once the form filters by itself. */
  const [picked, setPicked] = useState<SplitGroup['filter'] | null>(null);
  /** Bumped when a group is picked, so that the form starts again from its filter. */
  const [formVersion, setFormVersion] = useState(0);
  const latestRequest = useRef(0);
  const resultRef = useRef<HTMLElement>(null);
  /** Set when a group is picked from the splits, far above where its result is drawn. */
  const revealResult = useRef(false);

  useEffect(() => {
    if (!filtered || !revealResult.current) return;
    revealResult.current = false;
    // jsdom has no scrolling.
    resultRef.current?.scrollIntoView?.({ block: 'start' });
  }, [filtered]);

  async function applyFilter(body: BreakdownFilterBody, reveal = false) {
    if (!data) return;
    // Only the last filter asked for is shown, however the answers arrive.
    const request = ++latestRequest.current;
    setPending(true);
    setFilterError(false);
    const result = await filterBreakdown(data.question.id, body);
    if (request !== latestRequest.current) return;
    setPending(false);
    if (result instanceof ApiError) {
      setFilterError(true);
      return;
    }
    revealResult.current = reveal;
    setFiltered(result);
  }

  function pickGroup(group: SplitGroup) {
    setPicked(group.filter);
    setFormVersion((version) => version + 1);
    void applyFilter(group.filter, true);
  }

  function submitForm(body: BreakdownFilterBody) {
    setPicked(null);
    void applyFilter(body);
  }

  return { filtered, filterError, pending, picked, formVersion, resultRef, pickGroup, submitForm };
}

import { api, type People } from '@pollscope/contract';
import useSWR from 'swr';

/** People whose first name starts with `query`; nothing is asked for an empty query. */
export function usePeople(query: string) {
  return useSWR<People>(query.trim() ? api.people(query.trim()) : null);
}

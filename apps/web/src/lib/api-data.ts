import useSWR, { type SWRConfiguration } from 'swr';
import type { ApiPath } from './api-path';

/**
 * The data cache's copy of a GET of the API, with the type of the contract's answer; nothing is asked for while `path`
 * is null.
 */
export function useApiData<Answer>(path: ApiPath<Answer> | null, config?: SWRConfiguration<NoInfer<Answer>>) {
  return useSWR<Answer>(path, config);
}

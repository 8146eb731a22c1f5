import type { ReportBody, ReportCreated } from '@pollscope/contract';
import { useSWRConfig } from 'swr';
import { unstable_serialize } from 'swr/infinite';
import { ApiError, apiPost, type ApiResult } from '../../../lib/api-client';
import { pageKeys } from '../../../lib/cursor-pages';
import { myReportsKey } from './get-my-reports';

/**
 * Reports a question or a person (reporting one again while the report is open answers the same
 * report), then asks again for the reporter's own list of reports, which it joins.
 */
export function useCreateReport() {
  const { mutate } = useSWRConfig();
  return async (body: ReportBody): Promise<ApiResult<ReportCreated>> => {
    const result = await apiPost('/api/reports/', { body });
    if (!(result instanceof ApiError)) void mutate(unstable_serialize(pageKeys(myReportsKey)));
    return result;
  };
}

import type { SWRConfiguration } from 'swr';
import { ApiError, fetchJson } from './api-client';

/** The app-wide cache settings. */
export const swrDefaults: SWRConfiguration = {
  fetcher: fetchJson,
  revalidateOnFocus: false,
  dedupingInterval: 2000,
  focusThrottleInterval: 5000,
  errorRetryInterval: 5000,
  loadingTimeout: 3000,
  // A 4xx answer will not change by asking again.
  onErrorRetry: (error, _key, config, revalidate, { retryCount }) => {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) return;
    if (retryCount >= 3) return;
    setTimeout(() => void revalidate({ retryCount }), config.errorRetryInterval);
  },
};

/** Reference data and forms' initial values: loaded once, not refetched when stale. */
export const referenceData: SWRConfiguration = { revalidateIfStale: false };

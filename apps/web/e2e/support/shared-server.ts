import { inject } from 'vitest';

/**
 * Where this file's shared server answers. The global setup starts one for each worker
 * (vitest.e2e.config.ts), and a worker runs one file at a time: no two files at once share one.
 * Empty when the browser tests are skipped.
 */
export function sharedServerUrl(): string {
  const urls = inject('baseUrls');
  if (urls.length === 0) return '';
  return urls[(Number(process.env.VITEST_POOL_ID ?? '1') - 1) % urls.length];
}

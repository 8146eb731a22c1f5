import { useCallback } from 'react';
import { useIntl } from 'react-intl';
import { ApiError } from '../lib/api-client';

/**
 * What a failure says, in the language on screen: a failed call's message as the server wrote it
 * (in the person's language), or the app's own words where the server gave none (the server not
 * reached, an answer that could not be read: `ApiError.said`); any other error's message as it came.
 */
export function useErrorText(): (error: unknown) => string {
  const intl = useIntl();
  return useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.said) return intl.formatMessage({ id: error.said.id }, error.said.values);
      return error instanceof Error ? error.message : String(error);
    },
    [intl],
  );
}

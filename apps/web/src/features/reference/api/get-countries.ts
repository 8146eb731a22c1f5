import type { Country } from '@pollscope/contract';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { apiPath } from '../../../lib/api-path';
import { useApiData } from '../../../lib/api-data';
import { referenceData } from '../../../lib/swr-config';

export const countriesKey = apiPath('/api/polls/countries/');

/**
 * The countries, each named in the reader's language (`Intl.DisplayNames` from its ISO code; the
 * server's English name where the browser has none) and sorted as that language sorts.
 */
export function useCountries() {
  const response = useApiData(countriesKey, referenceData);
  const intl = useIntl();
  const { data } = response;
  const named = useMemo(() => {
    if (!data) return data;
    const collator = new Intl.Collator(intl.locale);
    return data
      .map((country): Country => ({
        ...country,
        name: intl.formatDisplayName(country.code, { type: 'region', fallback: 'none' }) ?? country.name,
      }))
      .sort((a, b) => collator.compare(a.name, b.name));
  }, [data, intl]);
  return { ...response, data: named };
}

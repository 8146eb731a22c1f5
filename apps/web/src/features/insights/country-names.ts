import type { Country } from '@pollscope/contract';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';

/**
 * Names a country by its id, as the countries list names it in the reader's language (useCountries, from its ISO code);
 * one the list lacks keeps the name it came with (`fallback`), or is "Country 250".
 */
export function useCountryName(countries: readonly Country[]): (id: number, fallback?: string) => string {
  const intl = useIntl();
  return useMemo(() => {
    const names = new Map(countries.map((country) => [country.id, country.name]));
    return (id, fallback) =>
      names.get(id) ?? fallback ?? intl.formatMessage({ id: 'insights.country.unnamed' }, { id });
  }, [countries, intl]);
}

import { api, type Country } from '@pollscope/contract';
import useSWR from 'swr';
import { referenceData } from '../../../lib/swr-config';

export const countriesKey = api.countries;

export function useCountries() {
  return useSWR<Country[]>(countriesKey, referenceData);
}

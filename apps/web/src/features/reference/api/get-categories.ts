import { api, type Category } from '@pollscope/contract';
import useSWR from 'swr';
import { referenceData } from '../../../lib/swr-config';

export const categoriesKey = api.categories;

export function useCategories() {
  return useSWR<Category[]>(categoriesKey, referenceData);
}

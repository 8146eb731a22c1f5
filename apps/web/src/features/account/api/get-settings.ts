import { api, type Settings } from '@pollscope/contract';
import useSWR from 'swr';
import { referenceData } from '../../../lib/swr-config';

export const settingsKey = api.settings;

export function useSettings() {
  return useSWR<Settings>(settingsKey, referenceData);
}

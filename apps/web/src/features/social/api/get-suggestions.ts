import { api, type Suggestions } from '@pollscope/contract';
import useSWR from 'swr';

/** People the viewer may want to follow, each with the reason: asked again each time they are shown, as following changes them. */
export function useSuggestions() {
  return useSWR<Suggestions>(api.suggestions);
}

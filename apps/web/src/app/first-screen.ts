import { api } from '@pollscope/contract';

/** What the feed, a signed-in person's first screen, asks for as it opens (its route's loader, and early-data.ts before it). */
export const feedScreenData = [api.feed, api.categories];

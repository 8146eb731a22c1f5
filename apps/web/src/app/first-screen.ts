import type { ApiPathOf } from '@pollscope/contract';

/*
 * Paths of the contract's GETs, written out rather than built: the page's first script
 * (early-data.ts), inlined in index.html, carries no more code than it runs.
 */

/**
 * What the feed, a signed-in person's first screen, asks for as it opens (its route's loader, and early-data.ts before
 * it).
 */
export const feedScreenData = ['/api/polls/questions/', '/api/polls/categories/'] satisfies ApiPathOf<'GET'>[];

/**
 * What the frame around every screen asks for as it opens for a signed-in person: the account (the header's shield) and
 * the unread count (its bell).
 */
export const signedInFrameData = ['/api/auth/account/', '/api/notifications/live/'] satisfies ApiPathOf<'GET'>[];

/**
 * What the server reads for a signed-in person's feed when it renders it in the page (first-screen-on-server.tsx):
 * the feed's data and the account the header shows; the unread count is a live stream the page opens itself.
 */
export const serverRenderedData = [...feedScreenData, '/api/auth/account/'] satisfies ApiPathOf<'GET'>[];

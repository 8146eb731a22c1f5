/**
 * The cookie the web app keeps its token in beside its storage, which the browser sends with the page: the server reads
 * it only to render a signed-in person's feed in the page at `/`. The API takes the token from the Authorization header
 * alone, so no other site can make a call with it.
 */
export const SESSION_COOKIE = 'pollscope_session';

/** The id of the element of that page carrying the answers the feed was rendered from, which the app starts with. */
export const FIRST_SCREEN_DATA_ID = 'pollscope-first-screen';

/**
 * The id of the template element of that page holding the app's own files (its scripts and preloads), which the page
 * loads once the feed is on screen rather than beside it.
 */
export const APP_FILES_TEMPLATE_ID = 'pollscope-app-files';

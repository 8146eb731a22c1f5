/**
 * What the rest of the app uses of this area: its routes, which serve the built web app, its entry page in the asker's
 * language with a signed-in person's feed rendered in it, and the app's files that speak.
 */
export { webAppRoutes } from './routes.js';

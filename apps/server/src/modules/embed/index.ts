/** What the rest of the app uses of this area: its routes, the embed page and oEmbed. */
export { embedRoutes } from './routes.js';

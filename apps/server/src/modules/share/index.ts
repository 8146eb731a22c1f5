/** What the rest of the app uses of this area: its routes, the page a shared link opens and the picture it names. */
export { shareRoutes } from './routes.js';

/** What the rest of the app uses of this area: its routes, the page a shared link opens and the picture it names. */
export { shareRoutes } from './routes.js';
export { CARD_HEIGHT, CARD_WIDTH } from './card-image.js';

/**
 * What the rest of the app uses of this area: its routes, which serve the reference data (countries, categories,
 * quizzes).
 */
export { referenceRoutes } from './routes.js';

/**
 * What the rest of the app uses of this area: its routes, which serve the reference data (countries, categories,
 * quizzes), and the list of categories they send, which the first screen reads too.
 */
export { categoryList, referenceRoutes } from './routes.js';

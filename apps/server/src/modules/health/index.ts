// What the rest of the app uses of health: the queue load shedding admits requests through (plugins/app/overload.ts),
// and the routes.
export { AdmissionQueue } from './admission-queue.js';
export { metricsRoutes } from './metrics.js';
export { healthRoutes } from './routes.js';

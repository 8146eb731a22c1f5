// What the app uses of health: the metrics registry every part adds to, load shedding, and the routes.
export { metricsPlugin, metricsRoutes } from './metrics.js';
export { overloadPlugin } from './overload.js';
export { healthRoutes } from './routes.js';

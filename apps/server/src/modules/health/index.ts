// What the app uses of health: the metrics registry every part adds to, the bound on connections, load shedding, and the routes.
export { connectionsPlugin } from './connections.js';
export { metricsPlugin, metricsRoutes } from './metrics.js';
export { overloadPlugin } from './overload.js';
export { healthRoutes } from './routes.js';

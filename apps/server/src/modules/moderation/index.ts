/**
 * What other module areas use of this one. They import it from here only, so that this area's own files can change
 * without touching them.
 */
export { noteRegisteredNetwork } from './networks.js';
export { removeReportsOf } from './reports.js';
export { refuseSuspended } from './suspension.js';

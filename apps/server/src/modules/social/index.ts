/**
 * What other module areas use of this one. They import it from here only, so that this area's own files can change
 * without touching them.
 */
export { removeConnectionsOf, setFollowing, userExists } from './users.js';
export { blockedEitherWay } from './blocks.js';

/**
 * What the rest of the app uses of this area. It imports it from here only, so that this area's own files can change
 * without touching it.
 */
export { deleteAccount } from './account-deletion.js';
export { authenticate, getAccount } from './accounts.js';
export { hashPassword } from './passwords.js';
export { createSession, hashToken, sessionsOf, type Sessions } from './sessions.js';
export { sessionsApplier } from './sessions-applier.js';

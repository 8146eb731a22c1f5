/**
 * What the rest of the app uses of this area. It imports it from here only, so that this area's own files can change
 * without touching it.
 */
export { UnreadHub } from './hub.js';
export { mailDueNotifications } from './mail.js';
export { removeNotificationsOf } from './notify.js';
export { notificationPush } from './push.js';
export { unreadCount } from './queries.js';
export { tellOf } from './tell.js';
export { unreadApplier } from './unread-applier.js';

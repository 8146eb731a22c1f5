/**
 * What the rest of the app uses of this area. It imports it from here only, so that this area's own files can change
 * without touching it.
 */
export { eventStreamsApplier, liveApplier } from './appliers.js';
export { EventStreams, wantsEventStream } from './event-stream.js';
export { LiveHub } from './hub.js';

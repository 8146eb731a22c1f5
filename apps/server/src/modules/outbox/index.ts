// The outbox every kind of message goes out through: a module area queues a row in its transaction, and its plugin
// starts a worker that sends the due rows, retries them, gives them up, and reports the outbox's metrics.
export { markFailed, type Outbox, type OutboxRow } from './outbox.js';
export { startOutboxWorker } from './worker.js';

import type { FastifyInstance } from 'fastify';
import { Counter, Gauge } from 'prom-client';
import { METRIC_PREFIX } from '../../lib/metrics.js';
import { repeatWhileOpen } from '../../lib/repeat.js';
import type { Db } from '../../db/index.js';
import {
  outboxBacklog,
  sendDue,
  type Attempt,
  type Failed,
  type Outbox,
  type OutboxRow,
  type OutboxTableName,
} from './outbox.js';

/** How often each instance looks for rows due; a row queued waits about this long. */
const POLL_MS = 1_000;

/** What one outbox's worker sends, and the words its metrics and logs name it by. */
export interface OutboxSender<T extends OutboxTableName, Done extends { kind: string }> {
  /** The first word of its metrics and log lines: `mail` gives `pollscope_mail_outbox_waiting` and `mail: …`. */
  name: string;
  /** How its help texts name what it sends, one and several (`push`, `Pushes`), and what takes it (`a push service`). */
  words: { one: string; several: string; taker: string };
  outbox: Outbox<T>;
  /** Sends a claimed row as things stand at `now`, reading through `held`, the connection that holds its lock. */
  send(row: OutboxRow<T>, held: Db, now: Date): Promise<Done | Failed>;
  /** What a log line names a row by. */
  logged(row: OutboxRow<T>): Record<string, unknown>;
  /** Runs after each attempt, its row's lock let go: what must not wait on other instances' locks. */
  settle?(attempt: Attempt<T, Done>): Promise<void>;
}

/**
 * Each instance's worker for one outbox: sends its due rows one by one, each held so that no other
 * instance sends it too. A failed send is logged and retried later; the worker stops, its row in
 * hand sent or left to retry, at `stop`. `round` sends every row due at `at` (now by default), one
 * after another, once the round under way has ended, and returns what came of each: the worker
 * runs it every second, tests run it too, to know that what has not come will not.
 */
export function startOutboxWorker<T extends OutboxTableName, Done extends { kind: string }>(
  app: FastifyInstance,
  sender: OutboxSender<T, Done>,
): { round(at?: Date): Promise<Attempt<T, Done>[]>; stop(): Promise<void> } {
  const { db, dialect } = app;
  const { rounds, record } = outboxMetrics(app, sender);
  // One round at a time in this instance: a SQLite file's rows are claimed without locks.
  let last: Promise<unknown> = Promise.resolve();
  const round = (closing: () => boolean, at?: Date): Promise<Attempt<T, Done>[]> => {
    const run = last.then(async () => {
      const attempts: Attempt<T, Done>[] = [];
      // Closing is checked before each row, so that the worker stops between two sends.
      while (!closing()) {
        const now = at ?? new Date();
        const attempt = await sendDue(db, dialect, sender.outbox, (row, held) => sender.send(row, held, now), now);
        if (attempt === null) break;
        await sender.settle?.(attempt);
        record(attempt);
        attempts.push(attempt);
      }
      rounds.inc();
      return attempts;
    });
    last = run.catch(() => {});
    return run;
  };
  const worker = repeatWhileOpen(
    app,
    POLL_MS,
    `${sender.name}: reading or updating the outbox failed, will look again`,
    async (closing) => {
      await round(closing);
    },
  );
  return { round: (at?: Date) => round(() => false, at), stop: () => worker.stop() };
}

/**
 * The metrics of one outbox: this instance's rounds, sends and failures, and gauges of the backlog,
 * read when scraped and the same on every instance (the outbox is shared); without the database, no value.
 * Returns what counts an attempt, and logs it when it failed.
 */
function outboxMetrics<T extends OutboxTableName, Done extends { kind: string }>(
  app: FastifyInstance,
  { name, words, outbox, logged }: OutboxSender<T, Done>,
) {
  const counter = (metric: string, help: string) =>
    new Counter({ name: `${METRIC_PREFIX}${name}_${metric}`, help, registers: [app.metrics] });
  const rounds = counter(
    'rounds_total',
    `Rounds of the ${name} worker that ended, each having sent every ${words.one} then due`,
  );
  const sent = counter('sent_total', `${words.several} this instance handed to ${words.taker}`);
  const failures = counter(
    'failures_total',
    `${words.several} this instance failed to hand over (each retried later, or given up past the last retry)`,
  );
  const backlogGauge = (
    metric: string,
    help: string,
    value: (backlog: Awaited<ReturnType<typeof outboxBacklog>>) => number,
  ) =>
    new Gauge({
      name: `${METRIC_PREFIX}${name}_outbox_${metric}`,
      help,
      registers: [app.metrics],
      async collect() {
        const backlog = await outboxBacklog(app.db, outbox).catch(() => null);
        if (backlog) this.set(value(backlog));
        else this.reset();
      },
    });
  backlogGauge('waiting', `${words.several} in the outbox neither sent nor given up`, (backlog) => backlog.waiting);
  backlogGauge(
    'oldest_age_seconds',
    `How long the oldest ${words.one} waiting has been in the outbox; 0 when none waits`,
    (backlog) => (backlog.oldestCreatedAt ? Math.max(0, (Date.now() - Date.parse(backlog.oldestCreatedAt)) / 1000) : 0),
  );
  backlogGauge(
    'given_up',
    `${words.several} given up after their last retry, kept in the outbox for an operator to look into`,
    (backlog) => backlog.givenUp,
  );
  const record = (attempt: Attempt<T, Done>) => {
    if (attempt.outcome.kind === 'sent') sent.inc();
    if (!('retryAt' in attempt)) return;
    failures.inc();
    const { row, outcome, retryAt } = attempt;
    const fields = { ...logged(row), attempts: row.attempts + 1, error: outcome.error };
    if (retryAt) app.log.warn({ ...fields, retryAt }, `${name}: sending failed, will retry`);
    else app.log.error(fields, `${name}: sending failed, given up`);
  };
  return { rounds, record };
}

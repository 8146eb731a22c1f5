import { setTimeout as sleep } from 'node:timers/promises';
import { metricValue } from '../src/test/metrics-text.js';

/** The writers that batch concurrent requests (changes/batched-writer.ts), by their metrics' name. */
const WRITERS = ['vote', 'like'] as const;
type Writer = (typeof WRITERS)[number];

/** One writer's transactions while a call was measured: how many, how many items each, and how long each took. */
export interface Batches {
  writer: Writer;
  batches: number;
  meanSize: number;
  meanMs: number;
}

type Totals = Record<Writer, { count: number; items: number; seconds: number }>;

/** The writers' totals so far, summed over the servers (their /metrics answer loopback callers). */
async function totals(urls: string[]): Promise<Totals> {
  const texts = await Promise.all(urls.map(async (url) => (await fetch(`${url}/metrics`)).text()));
  const sum = (series: string) => texts.reduce((total, text) => total + (metricValue(text, series) ?? 0), 0);
  return Object.fromEntries(
    WRITERS.map((writer) => [
      writer,
      {
        count: sum(`pollscope_${writer}_batch_size_count`),
        items: sum(`pollscope_${writer}_batch_size_sum`),
        seconds: sum(`pollscope_${writer}_batch_seconds_sum`),
      },
    ]),
  ) as Totals;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * Counts the writers' transactions from `delayMs` on (after a warm-up) until the returned function is called, which
 * returns those of each writer that wrote any: a written call's requests per second are about its batches' size over
 * their time.
 */
export function batchesDuring(urls: string[], delayMs: number): () => Promise<Batches[]> {
  const before = sleep(delayMs).then(() => totals(urls));
  return async () => {
    const [start, end] = [await before, await totals(urls)];
    return WRITERS.flatMap((writer) => {
      const batches = end[writer].count - start[writer].count;
      if (batches === 0) return [];
      const items = end[writer].items - start[writer].items;
      const seconds = end[writer].seconds - start[writer].seconds;
      return [{ writer, batches, meanSize: round2(items / batches), meanMs: round2((seconds * 1000) / batches) }];
    });
  };
}

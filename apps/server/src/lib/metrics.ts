import { Counter, Gauge, type Registry } from 'prom-client';
import type { CacheStats } from './clock-cache.js';

/** Every metric of the app's own starts so; the process's are `process_` and `nodejs_`. */
export const METRIC_PREFIX = 'pollscope_';

/** One cache an instance keeps, as its metrics show it. */
export interface MeasuredCache {
  stats(): CacheStats;
  /** What its budget counts: bytes, or entries, ids, cells… */
  unit: string;
  /** About how many bytes one unit takes in memory (1 when the unit is bytes): what `bytes` is estimated from. */
  bytesPerUnit: number;
}

/**
 * The metrics of the caches, each a series labelled with its name: hits and misses (counters),
 * entries, the budget used and allowed in the cache's unit, and the bytes that use takes (exact
 * for a cache counted in bytes, an estimate from a unit's typical size for the others). Read when
 * scraped, so a lookup costs nothing more than its count.
 */
export function registerCacheMetrics(registry: Registry, caches: Record<string, MeasuredCache>): void {
  type Read = (cache: MeasuredCache, stats: CacheStats) => number;
  const counter = (name: string, help: string, read: Read) =>
    new Counter({
      name: `${METRIC_PREFIX}cache_${name}_total`,
      help,
      labelNames: ['cache'],
      registers: [registry],
      collect() {
        // The cache keeps the running totals; the counter shows them as they are now.
        this.reset();
        for (const [cache, measured] of Object.entries(caches)) this.inc({ cache }, read(measured, measured.stats()));
      },
    });
  const gauge = (name: string, help: string, read: Read, withUnit = false) =>
    new Gauge({
      name: `${METRIC_PREFIX}cache_${name}`,
      help,
      labelNames: withUnit ? ['cache', 'unit'] : ['cache'],
      registers: [registry],
      collect() {
        for (const [cache, measured] of Object.entries(caches))
          this.set(withUnit ? { cache, unit: measured.unit } : { cache }, read(measured, measured.stats()));
      },
    });
  counter('hits', 'Lookups in the cache that found what they looked for', (_cache, stats) => stats.hits);
  counter('misses', 'Lookups in the cache that did not (read from the database next)', (_cache, stats) => stats.misses);
  gauge('entries', 'Entries the cache holds', (_cache, stats) => stats.entries);
  gauge('used', 'The budget the entries use, in the cache’s unit', (_cache, stats) => stats.used, true);
  gauge('budget', 'The most the cache keeps, in its unit (a setting)', (_cache, stats) => stats.budget, true);
  gauge(
    'bytes',
    'Memory the entries take: exact for a cache counted in bytes, else estimated from a unit’s typical size',
    (cache, stats) => Math.round(stats.used * cache.bytesPerUnit),
  );
}

/** A gauge read when scraped: `value()` then. */
export function registerGauge(registry: Registry, name: string, help: string, value: () => number): void {
  new Gauge({
    name: `${METRIC_PREFIX}${name}`,
    help,
    registers: [registry],
    collect() {
      this.set(value());
    },
  });
}

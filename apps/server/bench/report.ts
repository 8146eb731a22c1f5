import fs from 'node:fs';
import path from 'node:path';
import type { Batches } from './batches.js';
import type { CallName } from './calls.js';
import type { CommunityParameters } from './community-plan.js';
import type { LockWaits } from './lock-waits.js';
import type { CallMeasurement } from './measure.js';
import type { MixedLoadReport } from './mixed-load.js';

export interface CallResult extends CallMeasurement {
  name: CallName;
  label: string;
  /** The ceiling's requests per second measured just before this call (for the ceiling, its own). */
  ceiling: number | null;
  /** Requests per second as a share of that ceiling's. */
  ratioToCeiling: number | null;
  /** The largest server's resident memory during the call, MB. */
  rssPeakMb: number | null;
  target: { text: string; met: boolean | null } | null;
  /**
   * For a latency target, the call again on one connection: the latency of a request that waits
   * for no other (with more connections, each request also waits for those ahead of it).
   */
  singleConnection: (CallMeasurement & { met: boolean }) | null;
  /** PostgreSQL's backends waiting for a lock while the call was measured; null on SQLite. */
  lockWaits: LockWaits | null;
  /** The transactions of the writers that batch concurrent requests, those that wrote while the call was measured. */
  batches: Batches[];
}

export interface BenchResults {
  startedAt: string;
  command: string;
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGb: number;
    node: string;
    loadAverageBefore: number[];
    loadAverageAfter: number[];
  };
  /** `replicas`: the streaming replicas the servers read from (--replica), without passwords. */
  database: { kind: 'SQLite' | 'PostgreSQL'; version: string; location: string; replicas: string[] };
  community: CommunityParameters & {
    key: string;
    members: number;
    accounts: number;
    reused: boolean;
    generatedAt: string;
    generationSeconds: number;
  };
  settings: { instances: number; connections: number; warmupSeconds: number; durationSeconds: number; slowed: boolean };
  calls: CallResult[];
  /** `peakMb`: through the calls and the mixed load, which the bound is for; `overloadPeakMb`: in the overload run. */
  memory: {
    peakMb: number | null;
    overloadPeakMb: number | null;
    afterMb: number | null;
    target: { text: string; met: boolean | null };
  };
  mixed: MixedLoadReport | null;
  /** PostgreSQL's backends waiting for a lock while the mixed load was measured; null on SQLite. */
  mixedLockWaits: LockWaits | null;
  overload: MixedLoadReport | null;
}

const number = (value: number) => value.toLocaleString('en-US');
const verdict = (met: boolean | null) => (met === null ? 'not measured' : met ? 'met' : '**missed**');

function errorsOf(call: CallMeasurement): string {
  const statuses = Object.entries(call.non2xx);
  const non2xx = statuses.reduce((sum, [, count]) => sum + count, 0);
  return `${number(call.errors)} / ${number(non2xx)}${non2xx ? ` (${statuses.map(([status, count]) => `${status}: ${count}`).join(', ')})` : ''}`;
}

function targetCell(call: CallResult): string {
  if (!call.target) return '';
  const single = call.singleConnection;
  const alone = single
    ? `; on 1 connection p99 ${single.latencyMs.p99} ms (${errorsOf(single)} errors / non-2xx): ${verdict(single.met)}`
    : '';
  return `${call.target.text}: ${verdict(call.target.met)}${alone}`;
}

/** Backends waiting for a lock, on average and at most, with what the most waited for. */
function lockWaitsText(waits: LockWaits): string {
  const events = Object.entries(waits.byEvent)
    .slice(0, 3)
    .map(([event, mean]) => `${event} ${mean}`);
  return `${waits.meanWaiting} / ${waits.maxWaiting}${events.length ? ` (${events.join(', ')})` : ''}`;
}

/** Each writer's batches: `votes 4.99 × 3.14 ms`. */
function batchesText(batches: Batches[]): string {
  return batches.map((seen) => `${seen.writer}s ${seen.meanSize} × ${seen.meanMs} ms`).join(', ');
}

/** Under the overload run's load, the 2xx answers' p99 stays under this (the refused ones are answered at once). */
export const OVERLOAD_P99_TARGET_MS = 250;

function loadRow(name: string, load: MixedLoadReport): string {
  const failed = load.errors ? ` ${JSON.stringify(load.errorStatuses)}` : '';
  // With no 2xx at all there is no p99 to meet: nobody was served.
  const served = Object.values(load.byKind).some((counts) => counts.ok > 0);
  const target =
    name === 'overload'
      ? ` (< ${OVERLOAD_P99_TARGET_MS}: ${verdict(served && load.latencyMs2xx.p99 < OVERLOAD_P99_TARGET_MS)})`
      : '';
  return `| ${name} | ${number(load.connections)} | ${number(load.requests)} | ${number(load.requestsPerSecond)} | ${load.latencyMs.p50} | ${load.latencyMs.p99} | ${load.latencyMs2xx.p99}${target} | ${number(load.refused)} | ${load.errors}${failed} | ${number(load.acknowledgedVotes)} | ${number(Math.round(load.acknowledgedVotes / load.durationSeconds))} | ${load.lostVotes} | ${load.resultMismatches} | ${load.tallyMismatches === null ? 'not checked' : load.tallyMismatches.length} |`;
}

/** The mixed load and the overload run, side by side. */
function loadLines(mixed: MixedLoadReport | null, overload: MixedLoadReport | null): string[] {
  const runs = [mixed && { name: 'mixed', load: mixed }, overload && { name: 'overload', load: overload }].filter(
    (run) => run !== null,
  );
  return [
    `**Mixed load** (feed and question reads, votes by distinct people, likes), ${runs.map(({ name, load }) => `${name}: ${load.connections} connections, ${load.durationSeconds} s measured after ${load.warmupSeconds} s of warm-up`).join('; ')}. The overload run is past what the server answers in time: an answer 503 with Retry-After is a refusal, not an error.`,
    '',
    '| Run | Connections | Requests | Requests/s | p50 ms | p99 ms | p99 of 2xx ms | Refused (503) | Errors | Votes acknowledged | Votes/s | Votes lost | Results ≠ votes | Tallies ≠ rows |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...runs.map(({ name, load }) => loadRow(name, load)),
  ];
}

function callLines(results: BenchResults): string[] {
  const { settings } = results;
  const withLockWaits = results.calls.some((call) => call.lockWaits !== null);
  const withBatches = results.calls.some((call) => call.batches.length > 0);
  return [
    `Each call: ${settings.connections} connections over ${settings.instances} server instance${settings.instances === 1 ? '' : 's'}, ${settings.warmupSeconds} s of warm-up, then ${settings.durationSeconds} s measured.`,
    '',
    ...(results.calls.some((call) => call.name === 'ceiling')
      ? [
          'Each call is compared with the ceiling measured again just before it (the machine is shared, and its speed drifts over a run).',
          '',
        ]
      : []),
    ...(withLockWaits
      ? [
          'Lock waits: PostgreSQL backends waiting for a lock (pg_stat_activity, sampled every 100 ms while measured), on average / at most, and by what they waited for.',
          '',
        ]
      : []),
    ...(withBatches
      ? [
          "Batches: the transactions of the writers that write concurrent requests together, while measured, from the servers' /metrics: their mean size × their mean time to write and commit. A written call's requests per second are about the one over the other.",
          '',
        ]
      : []),
    `| Call | Request | Requests/s | p50 ms | p99 ms | Errors / non-2xx | Ceiling just before, requests/s | × ceiling | Server RSS MB | Target |${withLockWaits ? ' Lock waits |' : ''}${withBatches ? ' Batches |' : ''}`,
    `|---|---|---:|---:|---:|---|---:|---:|---:|---|${withLockWaits ? '---|' : ''}${withBatches ? '---|' : ''}`,
    ...results.calls.map(
      (call) =>
        `| ${call.name} | \`${call.label}\` | ${number(call.requestsPerSecond)} | ${call.latencyMs.p50} | ${call.latencyMs.p99} | ${errorsOf(call)} | ${call.name === 'ceiling' || call.ceiling === null ? '' : number(call.ceiling)} | ${call.ratioToCeiling === null ? '' : call.ratioToCeiling.toFixed(3)} | ${call.rssPeakMb ?? ''} | ${targetCell(call)} |${withLockWaits ? ` ${call.lockWaits ? lockWaitsText(call.lockWaits) : ''} |` : ''}${withBatches ? ` ${batchesText(call.batches)} |` : ''}`,
    ),
  ];
}

export function toMarkdown(results: BenchResults): string {
  const { community, machine, database } = results;
  const occasional = community.accounts - community.members;
  const lines = [
    `## Pollscope benchmark: ${database.kind}, ${results.startedAt.slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `\`${results.command}\``,
    '',
    `- Community (seed ${community.seed}, key ${community.key}): ${number(community.members)} members${occasional ? ` and ${number(occasional)} occasional voters (who answer only the big and the related questions)` : ''}, ${number(community.questions)} questions, ${number(community.votes)} votes; the big question has ${number(community.bigQuestionVotes)} votes, the two related questions ${number(community.pairQuestionVotes)} voters each. ${community.reused ? `Kept from an earlier run (generated ${community.generatedAt} in ${community.generationSeconds} s).` : `Generated in ${community.generationSeconds} s.`}`,
    `- Machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGb} GB, Node ${machine.node}; ${database.kind} ${database.version}${database.replicas.length ? `, reads that may lag from ${database.replicas.length} streaming replica${database.replicas.length === 1 ? '' : 's'}` : ''}. Load average before ${machine.loadAverageBefore.join(', ')}, after ${machine.loadAverageAfter.join(', ')} (the machine is shared: the server, the database and the load generator run on the same cores).`,
    `- Server instances: ${results.settings.instances}${results.settings.slowed ? ', each on processor 0 beside a busy neighbour spinning there (slowed)' : ''}.`,
    '',
    ...(results.calls.length > 0 ? [...callLines(results), ''] : []),
    `Server memory (resident, largest instance): peak ${results.memory.peakMb ?? '?'} MB through the calls and the mixed load${results.memory.overloadPeakMb === null ? '' : `, ${results.memory.overloadPeakMb} MB in the overload run`}, ${results.memory.afterMb ?? '?'} MB after the runs. ${results.memory.target.text}: ${verdict(results.memory.target.met)}.`,
  ];
  if (results.mixed || results.overload) lines.push('', ...loadLines(results.mixed, results.overload));
  if (results.mixedLockWaits)
    lines.push(
      '',
      `PostgreSQL backends waiting for a lock during the mixed load, on average / at most: ${lockWaitsText(results.mixedLockWaits)}.`,
    );
  return `${lines.join('\n')}\n`;
}

/** Writes the results as JSON and Markdown under a timestamped name, and as latest.md. */
export function writeResults(directory: string, results: BenchResults): { json: string; markdown: string } {
  fs.mkdirSync(directory, { recursive: true });
  const stamp = results.startedAt.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z');
  const base = path.join(directory, `bench-${results.database.kind.toLowerCase()}-${stamp}`);
  const markdown = toMarkdown(results);
  fs.writeFileSync(`${base}.json`, `${JSON.stringify(results, null, 2)}\n`);
  fs.writeFileSync(`${base}.md`, markdown);
  fs.writeFileSync(path.join(directory, 'latest.md'), markdown);
  return { json: `${base}.json`, markdown: `${base}.md` };
}

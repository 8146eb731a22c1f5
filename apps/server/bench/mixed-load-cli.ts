import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createCommunity, startServer } from '../src/test/server-process.js';
import { runMixedLoad, type MixedLoadReport } from './mixed-load.js';

const usage = `Usage: npx tsx apps/server/bench/mixed-load-cli.ts [options]

Starts the server on a fresh database, registers a small community through the API, then
runs a mix of feed reads, question reads, votes by distinct people and likes, and checks
afterwards that no vote answered with 200 was lost and that every tally counts its rows.

Options:
  --connections <n>      simultaneous connections (default 200)
  --duration <seconds>   length of the measured run (default 60)
  --warmup <seconds>     reads on the same connections before it, not measured (default 15; 0: none)
  --voters <n>           people who vote (default 500)
  --questions <n>        questions they vote on (default 150)
  --database-url <url>   an empty database to use instead of a fresh SQLite file (e.g. postgres://…)
  --json                 print the report as JSON
  --help                 show this text

Exits with 1 when a request failed, a vote was lost or a tally is wrong.`;

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '200' },
    duration: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '15' },
    voters: { type: 'string', default: '500' },
    questions: { type: 'string', default: '150' },
    'database-url': { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}

function count(name: 'connections' | 'duration' | 'warmup' | 'voters' | 'questions', min = 1): number {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < min) {
    console.error(`--${name} takes a whole number from ${min}\n\n${usage}`);
    process.exit(2);
  }
  return value;
}

function print(report: MixedLoadReport): void {
  const lines = [
    `${report.connections} connections for ${report.durationSeconds} s after ${report.warmupSeconds} s of warm-up (${report.connectionsReady} connections served by then): ${report.requests} requests, ${report.requestsPerSecond} per second`,
    `latency ms: p50 ${report.latencyMs.p50}, p90 ${report.latencyMs.p90}, p99 ${report.latencyMs.p99}, max ${report.latencyMs.max}`,
    ...Object.entries(report.byKind).map(
      ([kind, counts]) => `  ${kind.padEnd(9)} ${String(counts.requests).padStart(8)} requests, ${counts.ok} ok, ${counts.conflicts} already answered, ${counts.failed} failed`,
    ),
    `errors: ${report.errors}${report.errors ? ` ${JSON.stringify(report.errorStatuses)}` : ''} (during the warm-up, not counted: ${report.warmupErrors})`,
    `votes acknowledged: ${report.acknowledgedVotes}, lost: ${report.lostVotes}`,
    `questions whose result does not count its votes: ${report.resultMismatches}`,
    `tallies that differ from their rows: ${report.tallyMismatches === null ? 'not checked' : report.tallyMismatches.length}`,
    ...(report.tallyMismatches ?? []).slice(0, 20).map((mismatch) => `  ${mismatch}`),
  ];
  console.log(lines.join('\n'));
}

const settings = { connections: count('connections'), duration: count('duration'), warmup: count('warmup', 0), voters: count('voters'), questions: count('questions') };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pollscope-load-'));
const databaseUrl = values['database-url'] ?? path.join(dir, 'load.db');
const server = await startServer(databaseUrl);
try {
  const community = await createCommunity(server.baseUrl, { voters: settings.voters, questions: settings.questions });
  const report = await runMixedLoad({
    baseUrl: server.baseUrl,
    tokens: community.voterTokens,
    questionIds: community.questionIds,
    durationSeconds: settings.duration,
    warmupSeconds: settings.warmup,
    connections: settings.connections,
    databaseUrl,
  });
  if (values.json) console.log(JSON.stringify(report, null, 2));
  else print(report);
  const sound = report.errors === 0 && report.lostVotes === 0 && report.resultMismatches === 0 && report.tallyMismatches?.length === 0;
  process.exitCode = sound ? 0 : 1;
} finally {
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}

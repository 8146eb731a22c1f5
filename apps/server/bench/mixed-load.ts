import autocannon from 'autocannon';
import { describeMismatch, findTallyMismatches } from '../src/db/check.js';
import { openDatabase } from '../src/db/index.js';
import { autocannonUrl, summarizeLatencies, type LatencySummary } from './measure.js';

export interface MixedLoadOptions {
  /** The servers, e.g. http://127.0.0.1:3000; connections are spread over them. */
  baseUrls: string[];
  /** Sign-in tokens, one per person; votes are spread over them. */
  tokens: string[];
  /**
   * Questions to read, answer and like. For the tally check, nobody but the people behind
   * `tokens` may have answered them, before or during the run.
   */
  questionIds: number[];
  durationSeconds: number;
  connections: number;
  /**
   * Reads at full load before the measured part of the run, on the same connections (default
   * 15 s). A busy Node process accepts new connections slowly (about 20 a second here), so
   * 200 connections opened at once take seconds to be served first; the warm-up leaves that,
   * and the server's cold start, out of the measurement. 0 measures from a cold start.
   */
  warmupSeconds?: number;
  /** The server's database (a SQLite path or postgres:// URL): when given, every tally is checked there too. */
  databaseUrl?: string;
  /**
   * Past what the servers can answer in time (the overload run): a 503 with Retry-After is an
   * answer, counted as refused, not an error.
   */
  refusalsExpected?: boolean;
}

type Kind = 'feed' | 'question' | 'vote' | 'like';

/** One round of each connection: about a quarter writes, like a busy day. */
const ROUND: Kind[] = [
  'feed',
  'question',
  'vote',
  'question',
  'like',
  'feed',
  'question',
  'vote',
  'question',
  'feed',
  'vote',
  'question',
  'like',
  'question',
  'feed',
  'vote',
];

export interface KindCounts {
  requests: number;
  ok: number;
  /** Answers to a vote on a question the person had already answered: expected once every pair is used. */
  conflicts: number;
  /** 503 with Retry-After from an overloaded server, when the run expects them. */
  refused: number;
  failed: number;
}

export interface MixedLoadReport {
  warmupSeconds: number;
  durationSeconds: number;
  connections: number;
  requests: number;
  requestsPerSecond: number;
  latencyMs: LatencySummary;
  /** The latency of the answers with 2xx alone: what the people served waited. */
  latencyMs2xx: LatencySummary;
  /** Answers 503 with Retry-After (only expected in the overload run). */
  refused: number;
  byKind: Record<Kind, KindCounts>;
  /** Non-2xx answers other than the expected vote conflicts, plus connection errors and timeouts. */
  errors: number;
  /** Failed answers, by status. */
  errorStatuses: Record<string, number>;
  /** Failed answers, connection errors and timeouts while warming up, not counted above. */
  warmupErrors: number;
  /** Connections that had been answered when the measurement began (all of them, after a long enough warm-up). */
  connectionsReady: number;
  acknowledgedVotes: number;
  /** Votes answered with 200 that are missing afterwards, or stored with another choice. */
  lostVotes: number;
  /** Questions whose result count differs from the number of votes found for them. */
  resultMismatches: number;
  /** Tallies that differ from their rows in the database (only with `databaseUrl`). */
  tallyMismatches: string[] | null;
}

export interface QuestionInfo {
  id: number;
  /** A valid choice for a vote, drawn at random. */
  choice(): number;
}

interface Vote {
  voter: number;
  question: number;
  choice: number;
}

/**
 * Reads for the checks before and after a run; a server still shedding the run's load is asked again after its
 * Retry-After.
 */
async function getJson(baseUrl: string, path: string, token: string): Promise<any> {
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetch(baseUrl + path, {
      headers: { accept: 'application/json', authorization: `Token ${token}` },
    });
    const retryAfter = response.headers.get('retry-after');
    if (response.status === 503 && retryAfter !== null && attempt < 10) {
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, Number(retryAfter) * 1000));
      continue;
    }
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  }
}

/** Runs `work` over `items`, `concurrency` at a time. */
async function eachLimited<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)];

/** A question's id and a way to draw valid answers to it, read through the API. */
export async function questionInfo(baseUrl: string, token: string, id: number): Promise<QuestionInfo> {
  const question = await getJson(baseUrl, `/api/polls/question/${id}/`, token);
  if (question.type === 'MC') {
    const keys = (question.choices as { key: number }[]).map((choice) => choice.key);
    return { id, choice: () => pick(keys) };
  }
  const { min, max } = question.choices as { min: number; max: number };
  return { id, choice: () => min + Math.floor(Math.random() * (max - min + 1)) };
}

/** Every one of `questionIds` each person is shown to have answered, with their choice, read through the API. */
async function answersOf(baseUrl: string, tokens: string[], questionIds: Set<number>): Promise<Map<string, number>> {
  const answers = new Map<string, number>();
  await eachLimited(
    tokens.map((token, voter) => ({ token, voter })),
    16,
    async ({ token, voter }) => {
      let cursor: string | null = null;
      do {
        const page: { questions: { id: number; answer: { choice: number } | null }[]; next: string | null } =
          await getJson(baseUrl, `/api/polls/user/answered/?limit=100${cursor ? `&cursor=${cursor}` : ''}`, token);
        for (const question of page.questions)
          if (question.answer && questionIds.has(question.id))
            answers.set(`${voter}:${question.id}`, question.answer.choice);
        cursor = page.next;
      } while (cursor);
    },
  );
  return answers;
}

/**
 * Runs a mix of feed reads, question reads, votes by distinct people and likes against a
 * running server for `durationSeconds`, then checks that every vote answered with 200 is
 * stored with its choice and that every question's result counts exactly its votes.
 */
export async function runMixedLoad(options: MixedLoadOptions): Promise<MixedLoadReport> {
  const { baseUrls, tokens, questionIds, durationSeconds, connections } = options;
  const baseUrl = baseUrls[0];
  const questions = await Promise.all(questionIds.map((id) => questionInfo(baseUrl, tokens[0], id)));

  // Pairs are handed out so that consecutive votes fall on one question from different people:
  // the tallies of a popular question are the rows writers contend for. Pairs answered before
  // the run (an earlier run on the same database) are passed over, until every pair is used.
  const answeredBefore = await answersOf(baseUrl, tokens, new Set(questionIds));
  const pairs = tokens.length * questions.length;
  let nextPair = 0;
  const nextVote = (): Vote => {
    for (;;) {
      const pair = nextPair++ % pairs;
      const question = questions[Math.floor(pair / tokens.length)];
      const voter = pair % tokens.length;
      if (!answeredBefore.has(`${voter}:${question.id}`) || nextPair > pairs)
        return { voter, question: question.id, choice: question.choice() };
    }
  };

  const byKind = Object.fromEntries(
    ROUND.map((kind) => [kind, { requests: 0, ok: 0, conflicts: 0, refused: 0, failed: 0 }]),
  ) as Record<Kind, KindCounts>;
  const errorStatuses: Record<string, number> = {};
  const acknowledged: Vote[] = [];

  // One run both warms up and measures, so that the connections measured are those opened and
  // served during the warm-up.
  const warmupSeconds = options.warmupSeconds ?? 15;
  let measuring = warmupSeconds === 0;
  const latencies: number[] = [];
  const latencies2xx: number[] = [];
  let warmupErrors = 0;
  let connectionErrors = 0;
  const servedInWarmup = new Set<unknown>();

  interface Context {
    vote?: Vote;
    measured?: boolean;
  }
  const request = (kind: Kind): autocannon.Request => ({
    setupRequest: (req, context) => {
      const ctx = context as Context;
      ctx.measured = measuring;
      ctx.vote = undefined;
      const token = pick(tokens);
      // The warm-up only reads, so that every write belongs to the measured run.
      if (kind === 'vote' && measuring) {
        const vote = nextVote();
        ctx.vote = vote;
        return {
          ...req,
          method: 'POST',
          path: `/api/polls/answer/${vote.question}/`,
          headers: headersFor(tokens[vote.voter], true),
          body: JSON.stringify({ choice: vote.choice }),
        };
      }
      if (kind === 'like' && measuring) {
        return {
          ...req,
          method: 'POST',
          path: `/api/polls/${Math.random() < 0.6 ? 'like' : 'unlike'}/${pick(questions).id}/`,
          headers: headersFor(token, false),
          body: undefined,
        };
      }
      const path = kind === 'feed' ? '/api/polls/questions/' : `/api/polls/question/${pick(questions).id}/`;
      return { ...req, method: 'GET', path, headers: headersFor(token, false), body: undefined };
    },
    onResponse: (status, _body, context, headers) => {
      const ctx = context as Context;
      const ok = status >= 200 && status < 300;
      const refused = options.refusalsExpected === true && status === 503 && headers?.['retry-after'] !== undefined;
      if (ctx.vote && ok) acknowledged.push(ctx.vote);
      if (!ctx.measured) {
        if (!ok && !refused) warmupErrors += 1;
        return;
      }
      const counts = byKind[kind];
      counts.requests += 1;
      if (ok) counts.ok += 1;
      else if (kind === 'vote' && status === 409) counts.conflicts += 1;
      else if (refused) counts.refused += 1;
      else {
        counts.failed += 1;
        errorStatuses[`${kind} ${status}`] = (errorStatuses[`${kind} ${status}`] ?? 0) + 1;
      }
    },
  });

  const startMeasuring = setTimeout(() => (measuring = true), warmupSeconds * 1000);
  await new Promise<void>((resolve, reject) => {
    const run = autocannon(
      {
        url: autocannonUrl(baseUrls),
        connections,
        duration: warmupSeconds + durationSeconds,
        requests: ROUND.map(request),
      },
      (error) => (error ? reject(error) : resolve()),
    );
    run.on('response', (client, status, _bytes, responseTime) => {
      if (!measuring) {
        servedInWarmup.add(client);
        return;
      }
      latencies.push(responseTime);
      if (status >= 200 && status < 300) latencies2xx.push(responseTime);
    });
    run.on('reqError', () => {
      if (measuring) connectionErrors += 1;
      else warmupErrors += 1;
    });
  });
  clearTimeout(startMeasuring);

  // Requests still in flight when the run stops are answered after it, and their votes counted
  // then: the answers are read until two readings a second apart agree.
  let answers = await answersOf(baseUrl, tokens, new Set(questionIds));
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const again = await answersOf(baseUrl, tokens, new Set(questionIds));
    if (again.size === answers.size) break;
    answers = again;
  }
  const lostVotes = acknowledged.filter((vote) => answers.get(`${vote.voter}:${vote.question}`) !== vote.choice).length;

  // A question's result, as one of its voters sees it, must count every vote found for it.
  const votersOf = new Map<number, number[]>();
  for (const key of answers.keys()) {
    const [voter, question] = key.split(':').map(Number);
    votersOf.set(question, [...(votersOf.get(question) ?? []), voter]);
  }
  let resultMismatches = 0;
  await eachLimited([...votersOf], 16, async ([question, voters]) => {
    const view = await getJson(baseUrl, `/api/polls/question/${question}/`, tokens[voters[0]]);
    if (view.result?.count !== voters.length) resultMismatches += 1;
  });

  let tallyMismatches: string[] | null = null;
  if (options.databaseUrl) {
    const database = openDatabase(options.databaseUrl);
    try {
      tallyMismatches = (await findTallyMismatches(database.db)).map(describeMismatch);
    } finally {
      await database.close();
    }
  }

  const total = (count: (counts: KindCounts) => number) =>
    Object.values(byKind).reduce((sum, counts) => sum + count(counts), 0);
  const failed = total((counts) => counts.failed);
  const requests = total((counts) => counts.requests);
  return {
    warmupSeconds,
    durationSeconds,
    connections,
    requests,
    requestsPerSecond: Math.round(requests / durationSeconds),
    latencyMs: summarizeLatencies(latencies),
    latencyMs2xx: summarizeLatencies(latencies2xx),
    refused: total((counts) => counts.refused),
    byKind,
    errors: failed + connectionErrors,
    errorStatuses: {
      ...errorStatuses,
      ...(connectionErrors ? { 'connection errors and timeouts': connectionErrors } : {}),
    },
    warmupErrors,
    connectionsReady: servedInWarmup.size,
    acknowledgedVotes: acknowledged.length,
    lostVotes,
    resultMismatches,
    tallyMismatches,
  };
}

function headersFor(token: string, json: boolean): Record<string, string> {
  return {
    accept: 'application/json',
    authorization: `Token ${token}`,
    ...(json ? { 'content-type': 'application/json' } : {}),
  };
}

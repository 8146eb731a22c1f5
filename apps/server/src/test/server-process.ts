import {
  api,
  createQuestionBodySchema,
  createQuestionResponseSchema,
  questionSchema,
  registerBodySchema,
  tokenResponseSchema,
  type CreateQuestionBody,
} from '@pollscope/contract';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiClient, RawReply, type ApiClient } from './client.js';

export const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServerProcess {
  /** e.g. http://127.0.0.1:41234 */
  baseUrl: string;
  child: ChildProcess;
  /** What the process wrote: its log (warnings and errors) and anything on stderr. */
  output(): string;
  /** Sends the signal and waits for the process to end. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** A service a test starts on a port of its own, and may stop and start again there. */
export interface StoppableService {
  url: string;
  /** Stops it, waiting until it has. */
  stop(): Promise<void>;
  /** Starts it again on the same port, waiting until it answers; nothing when it runs. */
  start(): Promise<void>;
  /** Stops it for good and deletes what it wrote. */
  destroy(): Promise<void>;
}

/**
 * The server from its source, through the TypeScript loader, or as `npm start` runs it, built (`npm run build -w
 * apps/server`).
 */
export type ServerEntry = 'source' | 'build';
/** The arguments `npm start` gives node: its heap settings, then the built file. */
function startArguments(): string[] {
  const start = (
    JSON.parse(fs.readFileSync(path.join(serverDir, 'package.json'), 'utf8')) as { scripts: { start: string } }
  ).scripts.start;
  const [command, ...args] = start.split(/\s+/);
  if (command !== 'node') throw new Error(`npm start runs ${command}, not node`);
  return args;
}
const ENTRY_ARGUMENTS: Record<ServerEntry, () => string[]> = {
  source: () => ['--import', 'tsx', 'src/server.ts'],
  build: startArguments,
};

/**
 * The address the server listens at. Listening on any free port (PORT=0), it says which it got on a line of its own,
 * once ready: no port is probed and let go for it.
 */
function listeningUrl(
  child: ChildProcess,
  exited: Promise<void>,
  output: () => string,
  timeoutMs: number,
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let lines = '';
    const listening = (chunk: Buffer) => {
      lines += chunk.toString();
      const found = /^\{"listening":"(http:\/\/[^"]+)"\}$/m.exec(lines);
      if (!found) return;
      child.stdout!.off('data', listening);
      clearTimeout(timer);
      resolve(found[1]);
    };
    // Given up on, it is stopped, so that no process outlives the test that started it.
    const timer = setTimeout(() => {
      reject(new Error(`the server did not start in ${timeoutMs / 1000} s: ${output()}`));
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout!.on('data', listening);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the server stopped before listening: ${output()}`));
    });
  });
}

/**
 * Starts the real server on a database and a free port, as it runs in production but without the
 * demo community, rate limits, slow password hashing or the queue timeout of load shedding
 * (tests share busy cores: a process given little of them must not refuse their requests).
 */
export async function startServer(
  databaseUrl: string,
  env: Record<string, string> = {},
  nodeOptions: string[] = [],
  entry: ServerEntry = 'source',
  {
    fileLimit,
    cpu,
    startupTimeoutMs = 60_000,
  }: {
    /** The process's limit on open files (`ulimit -n`), lower than the test's own. */
    fileLimit?: number;
    /** The one processor the process may run on (`taskset -c`). */
    cpu?: number;
    /** How long it may take to migrate, seed and listen. */
    startupTimeoutMs?: number;
  } = {},
): Promise<ServerProcess> {
  const node = [
    ...(cpu === undefined ? [] : ['taskset', '-c', String(cpu)]),
    process.execPath,
    ...nodeOptions,
    ...ENTRY_ARGUMENTS[entry](),
  ];
  // The shell lowers its limit, then becomes node (exec): the process the test holds is the server's.
  const [command, ...args] =
    fileLimit === undefined ? node : ['bash', '-c', `ulimit -n ${fileLimit} && exec "$@"`, 'bash', ...node];
  const child = spawn(command, args, {
    cwd: serverDir,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      SEED_DEMO: '0',
      RATE_LIMITS: 'off',
      PASSWORD_HASH_COST: '1024',
      OVERLOAD_QUEUE_TIMEOUT_MS: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  // The last 64 KB: enough to tell what went wrong, bounded under a long load.
  const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-65_536));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);

  const baseUrl = await listeningUrl(child, exited, () => output, startupTimeoutMs);

  return {
    baseUrl,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Calls a running server over HTTP as a user (with their token) or anonymously. */
export function serverClient(baseUrl: string, token?: string): ApiClient {
  return apiClient(async (method, url, body) => {
    const response = await fetch(baseUrl + url, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Token ${token}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return new RawReply(response.status, Object.fromEntries(response.headers), await response.text());
  });
}

export interface Community {
  authorToken: string;
  /** One token per voter. */
  voterTokens: string[];
  questionIds: number[];
}

/** Registers an author who asks `questions` four-choice questions, and `voters` other people. */
export async function createCommunity(
  baseUrl: string,
  { voters, questions }: { voters: number; questions: number },
): Promise<Community> {
  const stamp = `${process.pid}-${Date.now()}`;
  const register = async (name: string, gender: 'F' | 'M') => {
    const body = {
      firstName: name,
      birthDate: '1985-03-20',
      gender,
      livingIn: 840,
      email: `${name}-${stamp}@example.com`,
      password: 'correct horse',
    };
    return (await serverClient(baseUrl).post(api.register, registerBodySchema, body, tokenResponseSchema)).token;
  };
  const authorToken = await register('author', 'F');
  const voterTokens: string[] = [];
  for (let index = 0; index < voters; index += 1)
    voterTokens.push(await register(`voter${index}`, index % 2 ? 'F' : 'M'));
  const questionIds: number[] = [];
  for (let index = 0; index < questions; index += 1) {
    const body: CreateQuestionBody = {
      type: 'MC',
      question: `Question ${index}?`,
      choices: ['A', 'B', 'C', 'D'],
      tags: [],
    };
    const { question } = await serverClient(baseUrl, authorToken).post(
      api.create,
      createQuestionBodySchema,
      body,
      createQuestionResponseSchema,
    );
    questionIds.push(question.id);
  }
  return { authorToken, voterTokens, questionIds };
}

export interface AcknowledgedVote {
  voter: number;
  questionId: number;
  choice: number;
}

/** A vote sent, and how it was answered: its status, or null when the connection failed (the server gone). */
export interface VoteOutcome extends AcknowledgedVote {
  /** When it was sent and how long its answer took, in ms (performance.now()). */
  sentAt: number;
  ms: number;
  status: number | null;
}

export interface VoteStream {
  /** The votes answered with 200. */
  acknowledged: AcknowledgedVote[];
  /** Every vote sent, in the order answered. */
  outcomes: VoteOutcome[];
}

/**
 * Sends every voter's vote on every question, `concurrency` at a time, each worker pausing
 * `pauseMs` between its votes, until all are sent, a call fails (the server is gone) or `stop()`
 * says so; `onOutcome` hears of each answer as it comes. `from` skips the pairs of voter and
 * question an earlier stream sent (its number of outcomes). A vote answered other than 200 fails the stream, but a
 * refusal (503 with Retry-After)
 * when `refusals` allows them: such a vote is not sent again.
 */
export async function streamVotes(
  baseUrl: string,
  community: Community,
  {
    concurrency,
    stop = () => false,
    refusals = false,
    pauseMs = 0,
    onOutcome = () => {},
    from = 0,
  }: {
    concurrency: number;
    stop?: (acknowledged: number) => boolean;
    refusals?: boolean;
    pauseMs?: number;
    onOutcome?: (outcome: VoteOutcome) => void;
    from?: number;
  },
): Promise<VoteStream> {
  const acknowledged: AcknowledgedVote[] = [];
  const outcomes: VoteOutcome[] = [];
  const total = community.voterTokens.length * community.questionIds.length;
  let next = from;
  const worker = async () => {
    while (next < total && !stop(acknowledged.length)) {
      const index = next++;
      const vote = {
        voter: index % community.voterTokens.length,
        questionId: community.questionIds[Math.floor(index / community.voterTokens.length)],
        choice: (index % 4) + 1,
      };
      const sentAt = performance.now();
      let reply: RawReply | null;
      try {
        reply = await serverClient(baseUrl, community.voterTokens[vote.voter]).raw(
          'POST',
          api.answer(vote.questionId),
          { choice: vote.choice },
        );
      } catch {
        reply = null;
      }
      const outcome = { ...vote, sentAt, ms: performance.now() - sentAt, status: reply?.status ?? null };
      outcomes.push(outcome);
      onOutcome(outcome);
      if (!reply) return; // the server is gone
      const refused = refusals && reply.status === 503 && reply.headers['retry-after'] !== undefined;
      if (reply.status !== 200 && !refused) throw new Error(`vote answered ${reply.status}: ${reply.text}`);
      if (reply.status === 200) acknowledged.push(vote);
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { acknowledged, outcomes };
}

/**
 * Of `votes`, those a server does not show its voter as their answer, with that choice: none, when no acknowledged vote
 * was lost.
 */
export async function votesMissing(
  baseUrl: string,
  community: Community,
  votes: AcknowledgedVote[],
): Promise<AcknowledgedVote[]> {
  const missing: AcknowledgedVote[] = [];
  for (const vote of votes) {
    const question = await serverClient(baseUrl, community.voterTokens[vote.voter]).get(
      api.question(vote.questionId),
      questionSchema,
    );
    if (question.answer?.choice !== vote.choice) missing.push(vote);
  }
  return missing;
}

/** Runs one of the server's commands (`src/db/check-cli.ts`…) to its end. */
export function runCommand(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: serverDir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

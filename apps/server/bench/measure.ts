import autocannon from 'autocannon';
import fs from 'node:fs';

/** One request of a measured call. */
export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  /** The caller's sign-in token; null for a public call. */
  token: string | null;
  body?: unknown;
}

export interface LatencySummary {
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface CallMeasurement {
  requests: number;
  requestsPerSecond: number;
  latencyMs: LatencySummary;
  /** Connection errors and timeouts. */
  errors: number;
  /** Answers other than 2xx, by status. */
  non2xx: Record<string, number>;
}

/**
 * autocannon's `url`: one server, or several that it spreads the connections over (autocannon 8
 * takes a list; its published types still say a string).
 */
export function autocannonUrl(urls: string[]): string {
  return (urls.length === 1 ? urls[0] : urls) as string;
}

/** Percentiles of latencies in ms, to a hundredth. */
export function summarizeLatencies(latencies: number[]): LatencySummary {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return { p50: round(at(0.5)), p90: round(at(0.9)), p99: round(at(0.99)), max: round(sorted[sorted.length - 1] ?? 0) };
}

/**
 * Sends the requests `next` makes, on `connections` connections spread over the servers, for
 * `warmupSeconds` unmeasured and then `durationSeconds` measured: every request is built when
 * it is sent, so each can carry another person and another question.
 */
export async function measureCall(
  urls: string[],
  next: () => BenchRequest,
  {
    connections,
    durationSeconds,
    warmupSeconds,
  }: { connections: number; durationSeconds: number; warmupSeconds: number },
): Promise<CallMeasurement> {
  let measuring = warmupSeconds === 0;
  const latencies: number[] = [];
  const non2xx: Record<string, number> = {};
  let errors = 0;
  const request: autocannon.Request = {
    setupRequest: (req) => {
      const { method, path, token, body } = next();
      const headers: Record<string, string> = { accept: 'application/json' };
      if (token) headers.authorization = `Token ${token}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      return { ...req, method, path, headers, body: body === undefined ? undefined : JSON.stringify(body) };
    },
  };
  const startMeasuring = setTimeout(() => (measuring = true), warmupSeconds * 1000);
  try {
    await new Promise<void>((resolve, reject) => {
      const run = autocannon(
        { url: autocannonUrl(urls), connections, duration: warmupSeconds + durationSeconds, requests: [request] },
        (error) => (error ? reject(error) : resolve()),
      );
      run.on('response', (_client, status, _bytes, responseTime) => {
        if (!measuring) return;
        latencies.push(responseTime);
        if (status < 200 || status > 299) non2xx[status] = (non2xx[status] ?? 0) + 1;
      });
      run.on('reqError', () => {
        if (measuring) errors += 1;
      });
    });
  } finally {
    clearTimeout(startMeasuring);
  }
  return {
    requests: latencies.length,
    requestsPerSecond: Math.round(latencies.length / durationSeconds),
    latencyMs: summarizeLatencies(latencies),
    errors,
    non2xx,
  };
}

function rssMegabytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * The servers' resident memory (VmRSS, Linux), read five times a second: the largest any one
 * process reached overall and since the last `lap()`.
 */
export class MemorySampler {
  private peak = 0;
  private lapPeak = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pids: number[]) {
    this.timer = setInterval(() => this.sample(), 200);
    this.sample();
  }

  /** The largest resident size of one server now, in MB; null where /proc cannot tell. */
  current(): number | null {
    const sizes = this.pids.map(rssMegabytes).filter((size) => size !== null);
    return sizes.length === 0 ? null : Math.max(...sizes);
  }

  private sample(): void {
    const size = this.current() ?? 0;
    this.peak = Math.max(this.peak, size);
    this.lapPeak = Math.max(this.lapPeak, size);
  }

  /** The peak since the previous lap, and starts a new one. */
  lap(): number | null {
    this.sample();
    const peak = this.lapPeak;
    this.lapPeak = 0;
    return peak || null;
  }

  /** The peak since sampling began. */
  peakSoFar(): number | null {
    this.sample();
    return this.peak || null;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

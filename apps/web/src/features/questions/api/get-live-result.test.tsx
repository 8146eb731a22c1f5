import type { LiveResult } from '@pollscope/contract';
import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onUnauthorized } from '../../../lib/api-client';
import { getToken, storeToken } from '../../../lib/auth-token';
import { MAX_OPEN_STREAMS } from '../../../lib/live-stream';
import { controlledEventStream, stubStreams } from '../../../testing/event-stream-stub';
import { useLiveResult } from './get-live-result';

const live = (count: number): LiveResult => ({
  id: 7,
  result: { count, answers: [{ key: 1, percent: 100 }] },
  like_count: 2,
  vote_count: count,
});
const resultEvent = (state: LiveResult) => `event: result\ndata: ${JSON.stringify(state)}\n\n`;

function watch(questionId = 7, enabled = true) {
  const onResult = vi.fn();
  const hook = renderHook(({ on }) => useLiveResult(questionId, on, onResult), { initialProps: { on: enabled } });
  return { onResult, ...hook };
}

/** Lets the stream's pending reads and the timers due in the next `milliseconds` run. */
const pass = (milliseconds = 0) => vi.advanceTimersByTimeAsync(milliseconds);

/** The next attempt to connect comes exactly `wait` milliseconds on, not before. */
async function expectNextAttemptAfter(fetchMock: ReturnType<typeof stubStreams>, wait: number) {
  const attempts = fetchMock.mock.calls.length;
  await pass(wait - 1);
  expect(fetchMock).toHaveBeenCalledTimes(attempts);
  await pass(1);
  expect(fetchMock).toHaveBeenCalledTimes(attempts + 1);
}

function setTabHidden(hidden: boolean) {
  Object.defineProperty(document, 'visibilityState', {
    configurable: true,
    get: () => (hidden ? 'hidden' : 'visible'),
  });
  document.dispatchEvent(new Event('visibilitychange'));
}

describe('useLiveResult', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    storeToken('t0k3n');
  });

  afterEach(() => {
    vi.useRealTimers();
    setTabHidden(false);
  });

  it('reads the stream with the token and hands over each result as it arrives', async () => {
    const stream = controlledEventStream();
    const fetchMock = stubStreams([stream]);
    const { onResult } = watch();
    await pass();
    const [path, init] = fetchMock.mock.calls[0];
    expect(path).toBe('/api/polls/live/7/');
    expect(init?.headers).toMatchObject({ Accept: 'text/event-stream', Authorization: 'Token t0k3n' });

    // An event may arrive in pieces, after comments the server sends to keep the line open.
    stream.send(`retry: 3000\n\n: still here\n\n${resultEvent(live(10)).slice(0, 30)}`);
    await pass();
    expect(onResult).not.toHaveBeenCalled();
    stream.send(resultEvent(live(10)).slice(30));
    await pass();
    expect(onResult).toHaveBeenLastCalledWith(live(10));

    stream.send(resultEvent(live(11)).replaceAll('\n', '\r\n'));
    await pass();
    expect(onResult).toHaveBeenLastCalledWith(live(11));
    expect(onResult).toHaveBeenCalledTimes(2);
  });

  it('reconnects after a drop, waiting longer after each failure in a row', async () => {
    const first = controlledEventStream();
    const third = controlledEventStream();
    const fetchMock = stubStreams([first, new TypeError('Failed to fetch'), new Response('', { status: 502 }), third]);
    const { onResult } = watch();
    await pass();
    first.send(`retry: 1000\n\n${resultEvent(live(10))}`);
    first.end();
    // The server's wait first, then twice as long after each failed attempt.
    await expectNextAttemptAfter(fetchMock, 1000);
    await expectNextAttemptAfter(fetchMock, 2000);
    await expectNextAttemptAfter(fetchMock, 4000);
    third.send(resultEvent(live(12)));
    await pass();
    expect(onResult).toHaveBeenLastCalledWith(live(12));
  });

  it('ends the session and stops when the token is refused', async () => {
    const fetchMock = stubStreams([
      new Response(JSON.stringify({ message: 'Your session has ended, sign in again' }), { status: 401 }),
    ]);
    const sessionEnded = vi.fn();
    const stop = onUnauthorized(sessionEnded);
    watch();
    await pass(60_000);
    stop();
    expect(getToken()).toBeNull();
    expect(sessionEnded).toHaveBeenCalledOnce();
    expect(fetchMock).toHaveBeenCalledOnce();
  });

  it('stops without ending the session when the question may not be watched', async () => {
    const fetchMock = stubStreams([
      new Response(JSON.stringify({ message: 'You cannot act on this question' }), { status: 403 }),
    ]);
    watch();
    await pass(60_000);
    expect(getToken()).toBe('t0k3n');
    expect(fetchMock).toHaveBeenCalledOnce();
  });

  it('closes the stream when the result leaves the screen, and opens none while disabled', async () => {
    const fetchMock = stubStreams([controlledEventStream()]);
    const { rerender } = watch(7, false);
    await pass();
    expect(fetchMock).not.toHaveBeenCalled();
    rerender({ on: true });
    await pass();
    const signal = fetchMock.mock.calls[0][1]?.signal;
    expect(signal?.aborted).toBe(false);
    rerender({ on: false });
    expect(signal?.aborted).toBe(true);
    await pass(60_000);
    expect(fetchMock).toHaveBeenCalledOnce();
  });

  it(`keeps at most ${MAX_OPEN_STREAMS} streams open, the next one waiting for a free place`, async () => {
    const fetchMock = stubStreams(Array.from({ length: MAX_OPEN_STREAMS + 1 }, () => controlledEventStream()));
    const watches = Array.from({ length: MAX_OPEN_STREAMS + 1 }, (_, index) => watch(index + 1));
    await pass();
    expect(fetchMock).toHaveBeenCalledTimes(MAX_OPEN_STREAMS);
    watches[0].unmount();
    await pass();
    expect(fetchMock).toHaveBeenCalledTimes(MAX_OPEN_STREAMS + 1);
    expect(fetchMock.mock.calls.at(-1)?.[0]).toBe(`/api/polls/live/${MAX_OPEN_STREAMS + 1}/`);
  });

  it('lets go of the stream while the tab is hidden and opens it again when shown', async () => {
    const fetchMock = stubStreams([controlledEventStream(), controlledEventStream()]);
    watch();
    await pass();
    setTabHidden(true);
    expect(fetchMock.mock.calls[0][1]?.signal?.aborted).toBe(true);
    await pass(60_000);
    expect(fetchMock).toHaveBeenCalledOnce();
    setTabHidden(false);
    await pass();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

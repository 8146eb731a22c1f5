import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../testing/api-stub';
import { prefetch, takePrefetched, whenPrefetched } from './prefetch';

const FEED = '/api/polls/questions/';

describe('a request started before its screen', () => {
  it('hands its body over once it answers, and the screen’s own call then asks again rather than read it twice', async () => {
    const { requests } = stubApi(() => ({ body: { questions: [], next: null } }));
    prefetch(FEED);
    const use = vi.fn();
    await whenPrefetched(FEED, use);
    expect(use).toHaveBeenCalledWith({ questions: [], next: null });
    expect(takePrefetched(FEED)).toBeUndefined();
    expect(requests).toHaveLength(1);
  });

  it('is left to the screen’s own call when that call took it first', async () => {
    stubApi(() => ({ body: { questions: [], next: null } }));
    prefetch(FEED);
    const use = vi.fn();
    const settled = whenPrefetched(FEED, use);
    const taken = takePrefetched(FEED);
    expect(await (await taken!).json()).toEqual({ questions: [], next: null });
    await settled;
    expect(use).not.toHaveBeenCalled();
  });

  it('is left to the screen’s own call, which reports it, when it fails', async () => {
    stubApi(() => ({ status: 500, body: { message: 'Down' } }));
    prefetch(FEED);
    const use = vi.fn();
    await whenPrefetched(FEED, use);
    expect(use).not.toHaveBeenCalled();
    expect((await takePrefetched(FEED)!).status).toBe(500);
  });
});

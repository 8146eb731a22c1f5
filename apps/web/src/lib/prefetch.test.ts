import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../testing/api-stub';
import { apiPath } from './api-path';
import { prefetch, takePrefetched, whenPrefetched } from './prefetch';

const FEED = apiPath('/api/polls/questions/');
const emptyFeed = { qotd: null, questions: [], next: null };

describe('a request started before its screen', () => {
  it('hands its body over once it answers, and the screen’s own call then asks again rather than read it twice', async () => {
    const { requests, on } = stubApi();
    on('GET /api/polls/questions/', { body: emptyFeed });
    prefetch(FEED);
    const use = vi.fn();
    await whenPrefetched(FEED, use);
    expect(use).toHaveBeenCalledWith(emptyFeed);
    expect(takePrefetched(FEED)).toBeUndefined();
    expect(requests).toHaveLength(1);
  });

  it('is left to the screen’s own call when that call took it first', async () => {
    stubApi().on('GET /api/polls/questions/', { body: emptyFeed });
    prefetch(FEED);
    const use = vi.fn();
    const settled = whenPrefetched(FEED, use);
    const taken = takePrefetched(FEED);
    expect(await (await taken!).json()).toEqual(emptyFeed);
    await settled;
    expect(use).not.toHaveBeenCalled();
  });

  it('is left to the screen’s own call, which reports it, when it fails', async () => {
    stubApi().on('GET /api/polls/questions/', { status: 500, body: { message: 'Down' } });
    prefetch(FEED);
    const use = vi.fn();
    await whenPrefetched(FEED, use);
    expect(use).not.toHaveBeenCalled();
    expect((await takePrefetched(FEED)!).status).toBe(500);
  });
});

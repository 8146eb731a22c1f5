/** One block of a text/event-stream: an event with its data, or a comment line. */
export interface StreamBlock {
  event?: string;
  data?: string;
  retry?: number;
  comment?: string;
}

export interface EventStream {
  status: number;
  headers: Headers;
  /** Every block received so far, in order. */
  received: StreamBlock[];
  /** Resolves with the first block, received or still to come, after those already taken that matches. */
  next(matches?: (block: StreamBlock) => boolean, what?: string): Promise<StreamBlock>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

function parseBlock(text: string): StreamBlock {
  const block: StreamBlock = {};
  for (const line of text.split('\n')) {
    if (line.startsWith(':')) block.comment = line.slice(1).trim();
    const [, field, value] = /^(\w+): ?(.*)$/.exec(line) ?? [];
    if (field === 'event') block.event = value;
    if (field === 'data') block.data = block.data === undefined ? value : `${block.data}\n${value}`;
    if (field === 'retry') block.retry = Number(value);
  }
  return block;
}

/** How long `next` waits for a block before failing with what it did receive. */
const WAIT_MS = 15_000;

/** Opens a live stream over HTTP as a browser's fetch would, with the user's token in the header. */
export async function openEventStream(url: string, token?: string): Promise<EventStream> {
  const abort = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...(token ? { authorization: `Token ${token}` } : {}) },
    signal: abort.signal,
  });
  const received: StreamBlock[] = [];
  const waiting = new Set<() => void>();
  let taken = 0;

  const ended = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          received.push(parseBlock(buffer.slice(0, end)));
          buffer = buffer.slice(end + 2);
          for (const wake of waiting) wake();
        }
      }
    } catch (error) {
      if (!abort.signal.aborted) throw error;
    }
  })();

  return {
    status: response.status,
    headers: response.headers,
    received,
    ended,
    close: () => abort.abort(),
    next(matches = () => true, what = 'a block') {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(look);
          reject(new Error(`no ${what} in ${WAIT_MS} ms; received ${JSON.stringify(received)}`));
        }, WAIT_MS);
        function look() {
          while (taken < received.length) {
            const block = received[taken++];
            if (matches(block)) {
              clearTimeout(timer);
              waiting.delete(look);
              resolve(block);
              return;
            }
          }
        }
        waiting.add(look);
        look();
      });
    },
  };
}

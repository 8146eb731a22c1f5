/** One server-sent event: its name (`message` when the server gives none) and its data. */
export interface ServerEvent {
  event: string;
  data: string;
}

interface EventStreamHandlers {
  onEvent: (event: ServerEvent) => void;
  /** The server's `retry` field: how long to wait before reconnecting, in milliseconds. */
  onRetry: (milliseconds: number) => void;
}

/**
 * Reads a `text/event-stream` body to its end, handing over each event as it completes (the
 * format of the HTML standard's server-sent events: `field: value` lines, a blank line ends an
 * event, lines starting with a colon are comments).
 */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  { onEvent, onRetry }: EventStreamHandlers,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  let event = '';
  let data: string[] = [];

  function takeLine(line: string) {
    if (line === '') {
      if (data.length > 0) onEvent({ event: event || 'message', data: data.join('\n') });
      event = '';
      data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'retry' && /^\d+$/.test(value)) onRetry(Number(value));
  }

  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffered += decoder.decode(value, { stream: true });
    // A carriage return at the very end may be the first half of a CRLF still arriving.
    const lines = buffered.split(/\r\n|\n|\r(?!$)/);
    // The last piece may be a line still arriving.
    buffered = lines.pop() ?? '';
    lines.forEach(takeLine);
  }
}

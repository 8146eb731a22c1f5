import type { FastifyBaseLogger } from 'fastify';

/** One open stream of a person's unread count. */
export interface UnreadStream {
  send(unread: number): void;
  end(): void;
}

/**
 * The streams of unread counts open on this instance, by person. It is told whenever a person's
 * count may have moved, by a change made here or on another instance (unread-applier.ts), and
 * reads the count again, one read at a time per person however many changes come meanwhile; a
 * stream is sent the count only when it differs from the last one it was sent.
 */
export class UnreadHub {
  /** Each stream of each person, with the count it was last sent. */
  private readonly streams = new Map<number, Map<UnreadStream, number | null>>();
  /** People whose count must be read again, and those whose count is being read. */
  private readonly pending = new Set<number>();
  private readonly reading = new Set<number>();

  constructor(
    private readonly count: (userId: number) => Promise<number>,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The person's unread count may have moved. */
  changed(userId: number): void {
    if (this.streams.has(userId)) this.schedule(userId);
  }

  /** Changes may have gone unheard: every open stream's count is read again. */
  missed(): void {
    for (const userId of this.streams.keys()) this.schedule(userId);
  }

  /** Sends the person's count to the stream now and each time it moves. Returns what stops it. */
  watch(userId: number, stream: UnreadStream): () => void {
    let streams = this.streams.get(userId);
    if (!streams) this.streams.set(userId, (streams = new Map()));
    streams.set(stream, null);
    this.schedule(userId);
    return () => {
      const current = this.streams.get(userId);
      if (current?.delete(stream) && current.size === 0) this.streams.delete(userId);
    };
  }

  /** The streams open now. */
  get open(): number {
    let open = 0;
    for (const streams of this.streams.values()) open += streams.size;
    return open;
  }

  /** Ends every stream: their clients reconnect, to another instance. */
  close(): void {
    for (const streams of this.streams.values()) for (const stream of streams.keys()) stream.end();
    this.streams.clear();
  }

  private schedule(userId: number): void {
    this.pending.add(userId);
    if (this.reading.has(userId)) return;
    this.reading.add(userId);
    void this.refresh(userId);
  }

  /** Reads again while a change came during the last read: the last count sent is read after the last change. */
  private async refresh(userId: number): Promise<void> {
    while (this.pending.delete(userId)) {
      try {
        const unread = await this.count(userId);
        const streams = this.streams.get(userId) ?? new Map<UnreadStream, number | null>();
        for (const [stream, sent] of streams) {
          if (sent === unread) continue;
          streams.set(stream, unread);
          stream.send(unread);
        }
      } catch (error) {
        this.log.warn({ err: error, userId }, 'unread counts: reading a count failed');
      }
    }
    this.reading.delete(userId);
  }
}

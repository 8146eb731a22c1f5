interface Asked<Value> {
  resolve(value: Value): void;
  reject(error: unknown): void;
}

/**
 * Loads by key, gathering the keys asked for during one turn of the event loop into one call of
 * `loadMany` (a DataLoader-style batch): the requests read in one turn that all miss what is kept
 * cost one statement rather than one each, and a key asked for twice is loaded once. A key that
 * `loadMany` leaves out of its answer is rejected with `missing(key)`.
 */
export class TurnBatch<Key, Value> {
  private asked = new Map<Key, Asked<Value>[]>();

  constructor(
    private readonly loadMany: (keys: Key[]) => Promise<Map<Key, Value>>,
    private readonly missing: (key: Key) => Error,
  ) {}

  load(key: Key): Promise<Value> {
    return new Promise<Value>((resolve, reject) => {
      if (this.asked.size === 0) setImmediate(() => void this.flush());
      const waiting = this.asked.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else this.asked.set(key, [{ resolve, reject }]);
    });
  }

  private async flush(): Promise<void> {
    const asked = this.asked;
    this.asked = new Map();
    try {
      const loaded = await this.loadMany([...asked.keys()]);
      for (const [key, waiting] of asked) {
        const value = loaded.get(key);
        for (const { resolve, reject } of waiting) {
          if (value === undefined) reject(this.missing(key));
          else resolve(value);
        }
      }
    } catch (error) {
      for (const waiting of asked.values()) for (const { reject } of waiting) reject(error);
    }
  }
}

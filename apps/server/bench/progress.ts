const WIDTH = 30;

/**
 * A progress bar (on stderr unless told otherwise; none with a null stream): redrawn in place at
 * most ten times a second on a terminal, one line per tenth of the way otherwise (a log file, CI).
 */
export class Progress {
  private done = 0;
  private readonly started = Date.now();
  private lastDrawn = 0;
  private lastTenth = 0;

  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly stream: NodeJS.WriteStream | null = process.stderr,
  ) {}

  advance(by = 1): void {
    this.done += by;
    if (!this.stream) return;
    const now = Date.now();
    if (this.stream.isTTY) {
      if (now - this.lastDrawn >= 100) {
        this.lastDrawn = now;
        this.stream.write(`\r${this.line()}`);
      }
    } else {
      const tenth = Math.floor((this.done / Math.max(1, this.total)) * 10);
      if (tenth > this.lastTenth && tenth < 10) {
        this.lastTenth = tenth;
        this.stream.write(`${this.line()}\n`);
      }
    }
  }

  finish(): void {
    this.done = this.total;
    this.stream?.write(this.stream.isTTY ? `\r${this.line()}\n` : `${this.line()}\n`);
  }

  private line(): string {
    const share = this.total === 0 ? 1 : Math.min(1, this.done / this.total);
    const filled = Math.round(share * WIDTH);
    const seconds = ((Date.now() - this.started) / 1000).toFixed(1);
    return `${this.label.padEnd(12)} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${String(Math.floor(share * 100)).padStart(3)}% ${this.done.toLocaleString('en-US')}/${this.total.toLocaleString('en-US')} ${seconds} s`;
  }
}

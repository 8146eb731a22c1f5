import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { Shown } from './wording.js';

/** The marker a drawing thread is started with: card-drawing.ts draws only when it is one. */
export const DRAWING_THREAD = 'pollscope-card-drawing';
/** A thread with nothing to draw for this long ends, and gives back its memory. */
const IDLE_MS = 60_000;

export interface DrawRequest {
  id: number;
  shown: Shown;
}
export type DrawReply = { id: number; png: Uint8Array } | { id: number; error: string };

const here = fileURLToPath(import.meta.url);
/** The thread's code beside this file: JavaScript once built; in development and tests TypeScript, which tsx loads. */
const drawingEntry = path.join(path.dirname(here), `card-drawing${path.extname(here)}`);
const startDrawing = (options: WorkerOptions) =>
  drawingEntry.endsWith('.ts')
    ? new Worker(
        `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(pathToFileURL(drawingEntry).href)}); });`,
        { ...options, eval: true },
      )
    : new Worker(drawingEntry, options);

type Waiting = Map<number, { resolve: (png: Buffer) => void; reject: (error: Error) => void }>;

/** One drawing thread and the pictures it was handed that it has not answered yet. */
interface DrawingThread {
  worker: Worker;
  waiting: Waiting;
}

/**
 * The thread that draws the pictures of link previews (card-drawing.ts), started at the first
 * picture and ended after a minute without one: most instances draw few, and the drawing
 * library and its fonts are about 40 MB. A thread that fails fails the pictures it was drawing,
 * and the next picture starts another. A thread being ended takes no new picture, and its end
 * fails only the pictures it was handed: one asked for meanwhile goes to a new thread, started
 * once the old one is gone, so that two never hold the drawing library at once.
 */
export class CardDrawer {
  private thread: DrawingThread | null = null;
  /** The end of the thread last ended, while it lasts: no other thread starts before it is over. */
  private ending: Promise<void> | null = null;
  private nextId = 0;
  private idle: NodeJS.Timeout | null = null;

  /** `onThreadEnded`: told each time a thread has ended, whatever ended it. */
  constructor(
    private readonly idleMs = IDLE_MS,
    private readonly onThreadEnded?: () => void,
  ) {}

  async draw(shown: Shown): Promise<Buffer> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    if (!this.thread && this.ending) await this.ending;
    const thread = (this.thread ??= this.start());
    const id = (this.nextId += 1);
    return new Promise<Buffer>((resolve, reject) => {
      thread.waiting.set(id, { resolve, reject });
      thread.worker.postMessage({ id, shown } satisfies DrawRequest);
    });
  }

  /** Ends the thread now; pictures it is still drawing fail, and the next picture starts another. */
  async close(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const thread = this.thread;
    this.thread = null;
    if (!thread) return;
    const ending = thread.worker.terminate().then(() => undefined);
    this.ending = ending;
    try {
      await ending;
    } finally {
      if (this.ending === ending) this.ending = null;
    }
  }

  private start(): DrawingThread {
    const thread: DrawingThread = { worker: startDrawing({ workerData: DRAWING_THREAD }), waiting: new Map() };
    const { worker, waiting } = thread;
    // Never what keeps a server's process from exiting.
    worker.unref();
    worker.on('message', (reply: DrawReply) => {
      const asked = waiting.get(reply.id);
      waiting.delete(reply.id);
      if ('png' in reply) asked?.resolve(Buffer.from(reply.png.buffer, reply.png.byteOffset, reply.png.byteLength));
      else asked?.reject(new Error(`The picture could not be drawn: ${reply.error}`));
      if (waiting.size === 0 && this.thread === thread) {
        this.idle = setTimeout(() => void this.close(), this.idleMs);
        this.idle.unref();
      }
    });
    const failAll = (error: Error) => {
      if (this.thread === thread) this.thread = null;
      for (const { reject } of waiting.values()) reject(error);
      waiting.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => {
      failAll(new Error(`The drawing thread ended (exit code ${code})`));
      this.onThreadEnded?.();
    });
    return thread;
  }
}

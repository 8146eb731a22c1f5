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

/**
 * The thread that draws the pictures of link previews (card-drawing.ts), started at the first
 * picture and ended after a minute without one: most instances draw few, and the drawing
 * library and its fonts are about 40 MB. A thread that fails fails the pictures it was drawing,
 * and the next picture starts another.
 */
export class CardDrawer {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, { resolve: (png: Buffer) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private idle: NodeJS.Timeout | null = null;

  constructor(private readonly idleMs = IDLE_MS) {}

  draw(shown: Shown): Promise<Buffer> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const worker = (this.worker ??= this.start());
    const id = (this.nextId += 1);
    return new Promise<Buffer>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, shown } satisfies DrawRequest);
    });
  }

  /** Ends the thread now; pictures still being drawn fail. */
  async close(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private start(): Worker {
    const worker = startDrawing({ workerData: DRAWING_THREAD });
    // Never what keeps a server's process from exiting.
    worker.unref();
    worker.on('message', (reply: DrawReply) => {
      const waiting = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if ('png' in reply) waiting?.resolve(Buffer.from(reply.png.buffer, reply.png.byteOffset, reply.png.byteLength));
      else waiting?.reject(new Error(`The picture could not be drawn: ${reply.error}`));
      if (this.waiting.size === 0 && this.worker === worker) {
        this.idle = setTimeout(() => void this.close(), this.idleMs);
        this.idle.unref();
      }
    });
    const failAll = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const { reject } of this.waiting.values()) reject(error);
      this.waiting.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`The drawing thread ended (exit code ${code})`)));
    return worker;
  }
}

import net from 'node:net';

/**
 * One HTTP/1.1 connection held open by a test, to send requests on it one after another, or to leave a request half
 * sent.
 */
export interface RawConnection {
  /** Sends a GET on this connection, kept alive, and resolves with its answer. */
  get(path: string): Promise<{ status: number; body: string }>;
  /** Sends the start of a request and never its end: the server waits for the rest of its headers. */
  sendHalf(path: string): void;
  /** Resolves once the connection is closed, by either side, with every byte the server sent on it. */
  closed: Promise<string>;
  close(): void;
}

/** Opens a connection to `baseUrl` (http://host:port), resolving once it is established. */
export async function openConnection(baseUrl: string): Promise<RawConnection> {
  const { hostname, port } = new URL(baseUrl);
  const socket = net.connect({ host: hostname, port: Number(port) });
  let received = '';
  let waiting: (() => void) | null = null;
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
    waiting?.();
  });
  // A connection the server refuses may be reset: that is a close like any other here.
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) =>
    socket.once('close', () => {
      waiting?.();
      resolve(received);
    }),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('close', () => reject(new Error(`the connection to ${baseUrl} closed before it was established`)));
  });
  let taken = 0;

  /** The next whole answer after those taken, once it has come. */
  const nextAnswer = () =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const look = () => {
        const text = received.slice(taken);
        const headEnd = text.indexOf('\r\n\r\n');
        const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, headEnd));
        if (headEnd >= 0 && length && text.length >= headEnd + 4 + Number(length[1])) {
          const end = headEnd + 4 + Number(length[1]);
          taken += end;
          waiting = null;
          resolve({ status: Number(text.split(' ', 2)[1]), body: text.slice(headEnd + 4, end) });
        } else if (socket.destroyed) {
          waiting = null;
          reject(new Error(`the connection closed before a whole answer; received ${JSON.stringify(text)}`));
        }
      };
      waiting = look;
      look();
    });

  return {
    get(path) {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\nConnection: keep-alive\r\n\r\n`,
      );
      return nextAnswer();
    },
    sendHalf(path) {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n`);
    },
    closed,
    close: () => socket.destroy(),
  };
}

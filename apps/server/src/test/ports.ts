/**
 * Ports for servers that must be told theirs before they start, or start again on the same one.
 * Every other server in the tests listens on port 0 and says which it got (`startServer`).
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Whether `port` can be listened on now. */
async function listenable(port: number): Promise<boolean> {
  const probe = net.createServer();
  const listening = await new Promise<boolean>((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (listening) await new Promise((resolve) => probe.close(resolve));
  return listening;
}

/** Where the test processes of this machine claim their fixed ports, a file per port holding its claimant's pid. */
const claimsDir = path.join(os.tmpdir(), 'pollscope-test-ports');
const claimed = new Set<string>();
process.once('exit', () => claimed.forEach((file) => fs.rmSync(file, { force: true })));

/** Claims `port` for this process, unless a living process has: a claim left by one that died is taken over. */
function claim(port: number): boolean {
  const file = path.join(claimsDir, String(port));
  try {
    fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
  } catch {
    const owner = Number(fs.readFileSync(file, 'utf8'));
    if (isAlive(owner)) return false;
    fs.rmSync(file, { force: true });
    return claim(port);
  }
  claimed.add(file);
  return true;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A port for a server a test stops and starts again on the same port, kept for this process
 * until it ends. Below Linux's ephemeral range (32768 and up), so that no connection or server on
 * port 0 is ever given it, and claimed in a file, so that no other test process picks it while
 * its server is stopped; servers that need no fixed port listen on port 0.
 */
export async function freeFixedPort(): Promise<number> {
  fs.mkdirSync(claimsDir, { recursive: true });
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (!claim(port)) continue;
    if (await listenable(port)) return port;
    // Something outside the tests listens there: the claim stays, so that no one tries it again.
  }
}

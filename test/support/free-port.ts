import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A loopback port nothing listens on, which stays free until someone asks for it by number: for
 * a process the test starts on it (`PORT`), or as a port that refuses connections.
 *
 * The usual trick (listen on port 0, read the port, close) hands back a port from the kernel's
 * ephemeral range, and the next `listen(0)` anywhere on the machine (a server the test starts a
 * moment later, or another test file running beside it) may be given that same port: then the
 * "closed" port answers, or the process told to listen there fails with EADDRINUSE. Ports below
 * the ephemeral range are never handed out for `listen(0)`. Picked at random among about 12,000,
 * two test files asking at once get the same one with a chance of about one in 12,000.
 */
export async function freePort(): Promise<number> {
  const ephemeralStart = readEphemeralStart();
  const low = 20_000;
  const high = Math.max(low + 1_000, ephemeralStart) - 1;
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await isFree(port)) return port;
  }
  throw new Error(`freePort: no free loopback port found between ${low} and ${high} in 50 tries`);
}

function readEphemeralStart(): number {
  try {
    const [start] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    return Number(start) || 32_768;
  } catch {
    return 32_768; // Linux's default; other systems start higher (49152)
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A gate the test holds closed until it chooses to release it. */
export interface Gate {
  /** Resolves when the app's request reached the gate. */
  arrived: Promise<void>;
  release(): void;
}

/** The real third-party API the fixture apps call: what they get when nothing is mocked. */
export interface Upstream {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** A gate at `/upstream/gate/<id>`: the app's request waits there until `release()`. */
  gate(id: string): Gate;
  close(): Promise<void>;
}

export const REAL_GREETING = 'hello from the real upstream';

/**
 * Start the upstream on a free loopback port. `/upstream/greeting` answers REAL_GREETING; the
 * gates let a test hold several app requests in flight at once without sleeping.
 */
export async function startUpstream(): Promise<Upstream> {
  const gates = new Map<string, { arrive: () => void; released: Promise<void> }>();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path.startsWith('/upstream/gate/')) {
      const gate = gates.get(decodeURIComponent(path.slice('/upstream/gate/'.length)));
      if (gate === undefined) return void res.writeHead(404).end();
      gate.arrive();
      void gate.released.then(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"open":true}'));
      return;
    }
    if (path === '/upstream/greeting') {
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ greeting: REAL_GREETING }));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    gate(id) {
      const { promise: arrived, resolve: arrive } = Promise.withResolvers<void>();
      const { promise: released, resolve: release } = Promise.withResolvers<void>();
      gates.set(id, { arrive, released });
      return { arrived, release };
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

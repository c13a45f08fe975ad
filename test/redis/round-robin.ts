import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A load balancer on loopback: each request goes to the next of `targets` (`http://127.0.0.1:<port>`) in turn. */
export interface RoundRobin {
  origin: string;
  close(): Promise<void>;
}

export async function startRoundRobin(targets: readonly string[]): Promise<RoundRobin> {
  let next = 0;
  const server: Server = createServer((req, res) => {
    const target = new URL(req.url ?? '/', targets[next++ % targets.length]);
    const forwarded = request(target, { method: req.method, headers: req.headers, agent: false }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on('error', (error) => res.writeHead(502, { 'content-type': 'text/plain' }).end(`round-robin: ${error.message}`));
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

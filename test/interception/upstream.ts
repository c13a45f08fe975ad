import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';

/** A loopback HTTP server standing in for a real API or proxy; closed after the file's tests. */
export async function startUpstream(listener: http.RequestListener) {
  const server = http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

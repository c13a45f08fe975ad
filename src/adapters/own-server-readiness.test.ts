/**
 * The ready form's probe (own-server-readiness.ts, probe-own-server.ts) against real servers of
 * this process: what counts as the app serving, how a page still building is told, and every kind
 * of server a request can come in on (TCP, TLS, a Unix socket).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { AppReadiness } from '../core/control/app-readiness.js';
import { createOwnServerReadiness, READY_PROBE_TEST_ID, type OwnServerReadinessOptions } from './own-server-readiness.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

type Page = (req: IncomingMessage, res: ServerResponse) => void;

/** A server whose `/check` answers what the readiness says of `page` (`/` unless named), and whose other paths are `page`. */
function listener(page: Page, options: OwnServerReadinessOptions = {}): RequestListener {
  const readiness = createOwnServerReadiness(options);
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/check') return page(req, res);
    void readiness(req, url.searchParams.get('page') ?? '/').then((answer) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)));
  };
}

async function listen(server: Server, at: number | string = 0): Promise<Server> {
  servers.push(server);
  await new Promise<void>((resolve) => (typeof at === 'number' ? server.listen(at, '127.0.0.1', resolve) : server.listen(at, resolve)));
  return server;
}

const check = async (server: Server, page?: string): Promise<AppReadiness> => {
  const { port } = server.address() as AddressInfo;
  const response = await fetch(`http://127.0.0.1:${port}/check${page === undefined ? '' : `?page=${encodeURIComponent(page)}`}`);
  return (await response.json()) as AppReadiness;
};

test('a page answering below 500 (a 404 too) means the app serves, from then on; a 5xx does not', async () => {
  let status = 503;
  const seen: (string | undefined)[] = [];
  const server = await listen(createServer(listener((req, res) => {
    seen.push(req.headers['x-harness-test-id'] as string | undefined);
    res.writeHead(status).end('…');
  })));
  expect(await check(server)).toEqual({ ready: false, reason: 'GET / on this server answered 503 (a loading screen or an error)' });
  status = 404;
  const ready = await check(server);
  expect(ready).toEqual({ ready: true });
  status = 500;
  expect(await check(server)).toEqual(ready);
  // Two probes, as the probe's own test; none after the app served.
  expect(seen).toEqual([READY_PROBE_TEST_ID, READY_PROBE_TEST_ID]);
});

test('a page that has not answered yet is not ready; the probe goes on, and the next question gets its answer', async () => {
  let release!: () => void;
  const built = new Promise<void>((resolve) => (release = resolve));
  let probes = 0;
  const server = await listen(createServer(listener((_req, res) => {
    probes += 1;
    void built.then(() => res.writeHead(200).end('<h1>built</h1>'));
  }, { waitMs: 50 })));
  expect(await check(server)).toEqual({ ready: false, reason: 'GET / on this server has not answered within 0.05 s (the check goes on)' });
  expect(await check(server)).toMatchObject({ ready: false });
  release();
  await expect.poll(() => check(server)).toEqual({ ready: true });
  expect(probes).toBe(1);
});

test('103 Early Hints before the answer are skipped; the final status counts', async () => {
  const server = await listen(createServer(listener((_req, res) => {
    res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
    res.writeHead(200).end('ok');
  })));
  expect(await check(server)).toMatchObject({ ready: true });
});

test('the page is asked with the Host the question came with, and the path as given', async () => {
  const asked: { host?: string; url?: string }[] = [];
  const server = await listen(createServer(listener((req, res) => {
    asked.push({ host: req.headers.host, url: req.url });
    res.writeHead(200).end();
  })));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path: '/check?page=%2Fhealth%3Fdeep%3D1', headers: { host: 'app.test:3000' } }, (response) => response.resume().on('end', resolve));
    request.on('error', reject).end();
  });
  expect(asked).toEqual([{ host: 'app.test:3000', url: '/health?deep=1' }]);
});

test('a server on a Unix socket is asked on its socket', async () => {
  const socketPath = join(mkdtempSync(join(tmpdir(), 'harness-ready-')), 'app.sock');
  await listen(createServer(listener((_req, res) => res.writeHead(200).end())), socketPath);
  const answer = await new Promise<string>((resolve, reject) => {
    const request = httpRequest({ socketPath, path: '/check' }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve(text));
    });
    request.on('error', reject).end();
  });
  expect(JSON.parse(answer)).toMatchObject({ ready: true });
});

test('a node:https server is asked over TLS, whatever its certificate', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'harness-ready-tls-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
  const server = await listen(createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, listener((_req, res) => res.writeHead(204).end())));
  const { port } = server.address() as AddressInfo;
  const { request } = await import('node:https');
  const answer = await new Promise<string>((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path: '/check', rejectUnauthorized: false }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve(text));
    });
    sent.on('error', reject).end();
  });
  expect(JSON.parse(answer)).toMatchObject({ ready: true });
});

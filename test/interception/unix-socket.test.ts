/**
 * A node:http call over a unix socket reaches the process on the other end, with or without an
 * agent of the app's own, while the harness runs with `unhandled: 'error'`: it never leaves the
 * machine. (Nitro's dev server, under `nuxt dev`, forwards every request to its worker this way
 * through a keep-alive agent. The interception library's 0.41 line sent such calls to
 * 127.0.0.1:80, and the harness routed them around it; 0.45 keeps the path itself.)
 */
import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness } from 'scenario-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';

const socketPath = join(mkdtempSync(join(tmpdir(), 'scenario-harness-socket-')), 'app.sock');
const server = http.createServer((req, res) => res.end(`inner ${req.method} ${req.url} ${req.headers['x-harness-test-id'] ?? '-'}`));
const harness = createHarness({ enabled: true, announce: false, unhandled: 'error', scenarios: { default: { name: 'D', mocks: [] } } });

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  await harness.start();
});
afterAll(async () => {
  await harness.stop();
  await new Promise((resolve) => server.close(resolve));
});

function overSocket(call: 'request' | 'get', agent: http.Agent | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const options = { socketPath, path: '/inner?x=1', headers: { 'x-harness-test-id': 't1' }, ...(agent === undefined ? {} : { agent }) };
    const onResponse = (res: http.IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve(`${res.statusCode} ${body}`));
    };
    const request = call === 'get' ? http.get(options, onResponse) : http.request({ ...options, method: 'POST' }, onResponse);
    request.on('error', reject);
    if (call === 'request') request.end('body');
  });
}

test.each([
  ['request', 'a keep-alive agent of its own', (): http.Agent | undefined => new http.Agent({ keepAlive: true })],
  ['request', 'a plain agent of its own', (): http.Agent | undefined => new http.Agent()],
  ['get', 'a keep-alive agent of its own', (): http.Agent | undefined => new http.Agent({ keepAlive: true })],
  ['request', 'the global agent', (): http.Agent | undefined => undefined],
] as const)('http.%s over a unix socket with %s reaches the socket', async (call, _agent, makeAgent) => {
  const agent = makeAgent();
  try {
    expect(await overSocket(call, agent)).toBe(`200 inner ${call === 'get' ? 'GET' : 'POST'} /inner?x=1 t1`);
  } finally {
    agent?.destroy();
  }
});

test('the harness still answers node:http calls over TCP after them', async () => {
  const failed = await new Promise<string>((resolve) => {
    http.get('http://api.not-mocked.test/x', () => resolve('answered')).on('error', (error) => resolve(error.message));
  });
  expect(failed).toContain('No mock answers GET http://api.not-mocked.test/x');
});

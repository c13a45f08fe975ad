/**
 * What `scenario-harness serve` forwards (issue 23, item 2): a call no mock answers goes only to
 * a configured upstream (`--upstream`), never to another service on the server's loopback (a
 * pod's sidecars) in any spelling, and never to the server itself. Before, an unauthenticated
 * `/http/127.0.0.1:P/…` reached such a service with any method and body, even with a token and
 * `--unhandled error`, and a path nesting the server's own address made it call itself once per
 * level.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort } from '../support/free-port.js';
import { startServe, type ServeProcess } from './serve-process.js';

const SHOP = fileURLToPath(new URL('./fixtures/shop.yaml', import.meta.url));
const TOKEN = 'forwarding-token-0123456789';
/** Every way to write the sidecar's loopback address that the URL parser or DNS turns into 127.0.0.1 (or ::1, or "this host"). */
const LOOPBACK_SPELLINGS = ['127.0.0.1', 'localhost', '127.1', '2130706433', '0x7f000001', '0177.0.0.1', '127.0.0.2', 'LOCALHOST', 'localhost.', '[::1]', '[::ffff:127.0.0.1]', '0.0.0.0', '[::]'];

/** A service on the server's loopback, as a sidecar in the same pod: it counts every request that reaches it. */
let sidecar: Server;
let sidecarPort: number;
let sidecarHits = 0;
/** Served with a token, as the report: error (nothing may leave) and bypass (unanswered calls are forwarded). */
let strict: ServeProcess;
let open: ServeProcess;
/** The same sidecar configured as an upstream, plus an upstream port that points at itself. */
let configured: ServeProcess;
let selfPort: number;

beforeAll(async () => {
  sidecar = createServer((_req, res) => {
    sidecarHits++;
    res.end('sidecar admin answer');
  });
  await new Promise<void>((resolve) => sidecar.listen(0, '127.0.0.1', resolve));
  sidecarPort = (sidecar.address() as AddressInfo).port;
  selfPort = await freePort();
  const env = { HARNESS_TOKEN: TOKEN };
  [strict, open, configured] = await Promise.all([
    startServe(['--unhandled', 'error', SHOP], { env }),
    startServe(['--unhandled', 'bypass', SHOP], { env }),
    startServe(['--unhandled', 'bypass', '--upstream', `http://127.0.0.1:${sidecarPort}=0`, '--upstream', `http://127.0.0.1:${selfPort}=${selfPort}`, SHOP], { env }),
  ]);
});

afterAll(async () => {
  await Promise.all([strict, open, configured].map((serve) => serve?.stop()));
  await new Promise((resolve) => sidecar?.close(resolve));
});

test.each(LOOPBACK_SPELLINGS)("an unauthenticated call to the sidecar at %s is refused with a 502 and never reaches it, with --unhandled error or bypass", async (host) => {
  for (const serve of [strict, open]) {
    const hits = sidecarHits;
    const response = await fetch(`${serve.url}/http/${host}:${sidecarPort}/admin/reset`, { method: 'DELETE', body: 'drop everything' });
    const body = (await response.json()) as { error: string; testId: string };
    expect(response.status).toBe(502);
    expect(body.error).toMatch(/^No mock answers DELETE http:\/\/\S+\/admin\/reset for test "default-test" in scenario "default"/);
    expect(body.testId).toBe('default-test');
    expect(sidecarHits).toBe(hits);
  }
});

test('the refusal says why and what to do, in the body and the x-harness-hint header', async () => {
  const response = await fetch(`${open.url}/http/localhost:${sidecarPort}/admin`);
  expect(response.status).toBe(502);
  expect(((await response.json()) as { error: string }).error).toBe(
    `No mock answers GET http://localhost:${sidecarPort}/admin for test "default-test" in scenario "default", and the server does not forward it: http://localhost:${sidecarPort} is not one of its upstreams. Add a mock for it, or serve it with --upstream http://localhost:${sidecarPort}=0 to forward such calls there.`,
  );
  expect(response.headers.get('x-harness-hint')).toContain('only to its --upstream origins');
});

test("the test's journal shows the refused call as failed, and the log names the reason", async () => {
  const testId = randomUUID();
  await fetch(`${open.url}/http/127.1:${sidecarPort}/admin`, { method: 'POST', headers: { 'x-harness-test-id': testId } });
  const journal = await fetch(`${open.url}/__harness__/journal`, { headers: { 'x-harness-test-id': testId, authorization: `Bearer ${TOKEN}` } });
  const { calls } = (await journal.json()) as { calls: { method: string; url: string; answered: boolean; unhandled?: string }[] };
  expect(calls).toMatchObject([{ method: 'POST', url: `http://127.0.0.1:${sidecarPort}/admin`, answered: false, unhandled: 'failed' }]);
  await open.waitForOutput(new RegExp(`No mock answers POST http://127\\.0\\.0\\.1:${sidecarPort}/admin for test "${testId}" in scenario "default", and it may not be passed on: http://127\\.0\\.0\\.1:${sidecarPort} is not one of its upstreams\\. The call fails\\.`));
});

test.skipIf(process.platform !== 'linux')("10 requests whose path nests the server's own address 50 times open no connections to it: its open fds stay put", async () => {
  for (const serve of [strict, open]) {
    const fdsOf = () => readdirSync(`/proc/${serve.child.pid}/fd`).length;
    const before = fdsOf();
    const nested = `/http/127.0.0.1:${new URL(serve.url).port}`.repeat(50);
    const statuses = new Set<number>();
    for (let i = 0; i < 10; i++) {
      const response = await fetch(`${serve.url}${nested}/x`);
      statuses.add(response.status);
      await response.arrayBuffer();
    }
    // The test's own kept-alive connection may add one; each level of nesting used to add two, kept alive.
    expect(fdsOf() - before).toBeLessThanOrEqual(2);
    expect([...statuses]).toEqual([502]);
  }
});

test('a configured upstream is still forwarded to, by its own port and in the path; other spellings of it are not', async () => {
  const upstream = configured.upstreams[`http://127.0.0.1:${sidecarPort}`]!;
  let hits = sidecarHits;
  expect(await (await fetch(`${upstream}/status`)).text()).toBe('sidecar admin answer');
  expect(await (await fetch(`${configured.url}/http/127.0.0.1:${sidecarPort}/status`)).text()).toBe('sidecar admin answer');
  expect(sidecarHits).toBe(hits + 2);
  hits = sidecarHits;
  expect((await fetch(`${configured.url}/http/localhost:${sidecarPort}/status`)).status).toBe(502);
  expect(sidecarHits).toBe(hits);
});

test('a configured upstream that is the server itself is refused, not called: no loop', async () => {
  expect(configured.output()).toContain(`--upstream http://127.0.0.1:${selfPort} is refused on every call no mock answers: 127.0.0.1:${selfPort} is this server itself. Point the upstream at the real service, not at this server.`);
  const response = await fetch(`http://127.0.0.1:${selfPort}/loop`, { headers: { 'x-harness-test-id': randomUUID() } });
  expect(response.status).toBe(502);
  expect(((await response.json()) as { error: string }).error).toContain(`127.0.0.1:${selfPort} is this server itself`);
  await configured.waitForOutput(new RegExp(`127\\.0\\.0\\.1:${selfPort} is this server itself`));
});

test("a recording test's calls are not forwarded to this machine either", async () => {
  const testId = randomUUID();
  const headers = { 'x-harness-test-id': testId, authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  expect((await fetch(`${open.url}/__harness__/record`, { method: 'POST', headers, body: '{"mode":"all"}' })).status).toBe(200);
  const hits = sidecarHits;
  for (const host of ['0.0.0.0', '[::ffff:127.0.0.1]', '127.0.0.1']) {
    const response = await fetch(`${open.url}/http/${host}:${sidecarPort}/admin`, { headers: { 'x-harness-test-id': testId } });
    expect(response.status).toBe(502);
    expect(((await response.json()) as { error: string }).error).toMatch(/is an address of this machine, which a recording never calls|is not one of its upstreams/);
  }
  expect(sidecarHits).toBe(hits);
});

test("a recording test's call to a configured upstream is forwarded and kept in its draft", async () => {
  const testId = randomUUID();
  const control = { 'x-harness-test-id': testId, authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  expect((await fetch(`${configured.url}/__harness__/record`, { method: 'POST', headers: control, body: '{"mode":"all"}' })).status).toBe(200);
  const response = await fetch(`${configured.url}/http/127.0.0.1:${sidecarPort}/admin/status`, { headers: { 'x-harness-test-id': testId } });
  expect([response.status, await response.text()]).toEqual([200, 'sidecar admin answer']);
  const stopped = await fetch(`${configured.url}/__harness__/record?format=json`, { method: 'DELETE', headers: control });
  const draft = (await stopped.json()) as { exchanges: number; fileText: string };
  expect(draft.exchanges).toBe(1);
  expect(draft.fileText).toContain('sidecar admin answer');
  expect(draft.fileText).toContain('/admin/status');
});

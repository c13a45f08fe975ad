import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { freePort } from '../support/free-port.js';
import { runCli, startServe, type ServeProcess } from './serve-process.js';

const SHOP = fileURLToPath(new URL('./fixtures/shop.yaml', import.meta.url));
const running: ServeProcess[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((serve) => serve.stop('SIGKILL')));
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function serve(args: string[]): Promise<ServeProcess> {
  const started = await startServe(args);
  running.push(started);
  return started;
}

test('SIGTERM lets the call in flight finish, then the server exits with 0', async () => {
  // A loopback upstream that holds the call until the test lets it go.
  const arrived = Promise.withResolvers<void>();
  const release = Promise.withResolvers<void>();
  const upstream = createServer((_req, res) => {
    arrived.resolve();
    void release.promise.then(() => res.end('finished'));
  });
  servers.push(upstream);
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const { port } = upstream.address() as AddressInfo;
  const server = await serve(['--upstream', `http://127.0.0.1:${port}=0`, SHOP]);

  const inFlight = fetch(`${server.url}/http/127.0.0.1:${port}/slow`).then(async (response) => [response.status, await response.text()]);
  await arrived.promise;
  const mark = server.output().length;
  server.child.kill('SIGTERM');
  await server.waitForOutput(/SIGTERM: stopping \(calls in flight finish first\)/, mark);
  // Stopping: no new connections are accepted.
  await expect(fetch(`${server.url}/__harness__/health`)).rejects.toThrow();
  release.resolve();
  expect(await inFlight).toEqual([200, 'finished']);
  expect(await server.exited).toEqual({ code: 0, signal: null });
  expect(server.output()).toContain('Stopped.');
});

test('SIGINT (Ctrl+C) stops it the same way', async () => {
  const server = await serve([SHOP]);
  expect(await server.stop('SIGINT')).toEqual({ code: 0, signal: null });
  expect(server.output()).toMatch(/SIGINT: stopping[\s\S]*Stopped\./);
});

test('--watch reloads a changed file, refuses an invalid edit with the validation message and keeps the last good set', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'serve-watch-'));
  const file = join(dir, 'shop.yaml');
  copyFileSync(SHOP, file);
  const server = await serve(['--watch', file]);
  expect(server.output()).toContain('watching the files: a change reloads them.');
  const me = async () => (await fetch(`${server.url}/https/api.shop.example/me`, { headers: { 'x-harness-test-id': randomUUID() } })).json();
  expect(await me()).toEqual({ tier: 'standard' });

  let mark = server.output().length;
  writeFileSync(file, 'default:\n  name: Edited\n  mocks:\n    - url: https://api.shop.example/me\n      response: { body: { tier: edited } }\n');
  await server.waitForOutput(/Reloaded 1 scenarios from /, mark);
  expect(await me()).toEqual({ tier: 'edited' });

  mark = server.output().length;
  writeFileSync(file, 'default:\n  name: Broken\n  mocks:\n    - url: api.shop.example/me\n      response: { body: { tier: broken } }\n');
  const output = await server.waitForOutput(/Kept the last good scenarios \(1\)/, mark);
  expect(output.slice(mark)).toContain(`Invalid scenario definitions in ${file}:\n  - line 4, column 12: scenario "default", mocks[0].url: "api.shop.example/me" is not a URL pattern`);
  expect(await me()).toEqual({ tier: 'edited' });

  mark = server.output().length;
  writeFileSync(file, 'default:\n  name: Fixed\n  mocks:\n    - url: https://api.shop.example/me\n      response: { body: { tier: fixed } }\n');
  await server.waitForOutput(/Reloaded 1 scenarios/, mark);
  expect(await me()).toEqual({ tier: 'fixed' });
});

test('a reload keeps the sessions: a test keeps its scenario and state across it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'serve-watch-'));
  const file = join(dir, 'shop.yaml');
  copyFileSync(SHOP, file);
  const server = await serve(['--watch', file]);
  const testId = randomUUID();
  const headers = { 'x-harness-test-id': testId, 'content-type': 'application/json' };
  await fetch(`${server.url}/__scenario__`, { method: 'POST', headers, body: '{"scenario":"premium"}' });
  await fetch(`${server.url}/https/api.shop.example/orders/o-1`, { headers });
  const mark = server.output().length;
  writeFileSync(file, `# touched\n${readFileSync(SHOP, 'utf8')}`);
  await server.waitForOutput(/Reloaded 3 scenarios/, mark);
  expect(await (await fetch(`${server.url}/__scenario__`, { headers })).json()).toEqual({ testId, scenarioId: 'premium', scenarioName: 'Premium' });
  expect(await (await fetch(`${server.url}/__harness__/state`, { headers })).json()).toEqual({ testId, state: { polls: ['o-1'] } });
});

test('invalid files at start-up: exit 1 with the same messages, nothing listens', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'serve-bad-'));
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ default: { name: 'D', mocks: [{ url: '/x', response: { status: 42 } }] } }));
  const { code, stdout, stderr } = await runCli(['serve', '--port', '0', bad]);
  expect(code).toBe(1);
  expect(stdout).not.toContain('Serving');
  expect(stderr).toContain(`[scenario-harness] Invalid scenario definitions in ${bad}:\n  - line 1, column 66: scenario "default", mocks[0].response.status: `);
});

test('a port in use: exit 1 saying which port and what to do', async () => {
  const taken = createServer();
  servers.push(taken);
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const { port } = taken.address() as AddressInfo;
  const { code, stderr } = await runCli(['serve', '--port', String(port), SHOP]);
  expect(code).toBe(1);
  expect(stderr).toContain(`[scenario-harness] Failed to start the server: port ${port} on 127.0.0.1 is in use. Pick another (--port), or stop what runs there.`);
});

test('--redis without a reachable Redis: exit 1 naming the URL', async () => {
  const port = await freePort();
  const { code, stderr } = await runCli(['serve', '--port', '0', '--redis', `redis://127.0.0.1:${port}`, SHOP]);
  expect(code).toBe(1);
  expect(stderr).toContain(`[scenario-harness] Failed to connect to Redis at redis://127.0.0.1:${port}: `);
  expect(stderr).toContain('Check that Redis runs there');
});

/** A real upstream on this machine, whose origin the server is then given with --upstream: it forwards only to those. */
async function startThisMachineUpstream(): Promise<string> {
  const upstream = createServer((req, res) => res.end(`real ${req.url}`));
  servers.push(upstream);
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
}

test("--unhandled warn forwards a call no mock answers to the real upstream and logs it once per endpoint", async () => {
  const upstream = await startThisMachineUpstream();
  const server = await serve(['--unhandled', 'warn', '--upstream', `${upstream}=0`, SHOP]);
  const call = () => fetch(`${server.url}/http/${upstream.slice('http://'.length)}/live?x=1`, { headers: { 'x-harness-test-id': 't-warn' } });
  expect(await (await call()).text()).toBe('real /live?x=1');
  expect(await (await call()).text()).toBe('real /live?x=1');
  await server.waitForOutput(/No mock answers GET http:\/\/127\.0\.0\.1:\d+\/live for test "t-warn" in scenario "default"; it goes to the real network \(unhandled: 'warn', logged once per endpoint\)/);
  expect(server.output().match(/No mock answers GET/g)).toHaveLength(1);
});

test('--unhandled bypass forwards silently; custom --endpoint paths replace the default ones', async () => {
  const upstream = await startThisMachineUpstream();
  const server = await serve(['--unhandled', 'bypass', '--upstream', `${upstream}=0`, '--endpoint', 'setScenario=/__switch__', '--endpoint', 'getScenario=/__switch__', SHOP]);
  expect(server.output()).toContain('control: /__switch__, /__harness__/state, /__harness__/scenarios, /__harness__/journal, /__harness__/record, /__harness__/, /__harness__/sessions, /__harness__/mocks, /__harness__/answer, /__harness__/streams; health: /__harness__/health');
  expect(await (await fetch(`${server.url}/http/${upstream.slice('http://'.length)}/quiet`)).text()).toBe('real /quiet');
  const headers = { 'x-harness-test-id': 't-custom', 'content-type': 'application/json' };
  expect((await fetch(`${server.url}/__switch__`, { method: 'POST', headers, body: '{"scenario":"premium"}' })).status).toBe(200);
  expect(await (await fetch(`${server.url}/__switch__`, { headers })).json()).toEqual({ testId: 't-custom', scenarioId: 'premium', scenarioName: 'Premium' });
  expect((await fetch(`${server.url}/__scenario__`, { headers })).status).toBe(404);
  expect(server.output()).not.toContain('No mock answers');
});

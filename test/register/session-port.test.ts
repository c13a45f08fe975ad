/**
 * The session host of a real app under register (issue 42, item 4; issue 37, item 1): it listens
 * on HARNESS_SESSION_PORT when that is set, a port taken by another program stops the app at
 * start with what to do, and bytes any local program sends to that port (valid JSON that is not
 * an object, among them) close that connection only: the app, its forked backend and the
 * sessions they share go on.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort } from '../support/free-port.js';
import { cleanEnv, PLAIN_APP, runWithRegister, startWithRegister, type ChildApp } from './start-registered-app.js';

const TREE_APP = fileURLToPath(new URL('./fixtures/tree-app.mjs', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'scenario-harness-session-port-'));
const scenarios = join(work, 'scenarios.yaml');
writeFileSync(
  scenarios,
  `default:
  name: Greets
  mocks:
    - url: https://api.tree.test/greeting
      response: { body: hello }
other:
  name: Greets otherwise
  mocks:
    - url: https://api.tree.test/greeting
      response: { body: otherwise }
`,
);

/** Write `text` on a fresh connection to `port`; what came back once the other end closed it. */
function sendRaw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(text));
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNREFUSED' ? reject(error) : undefined));
    socket.on('close', () => resolve(received));
  });
}

let app: ChildApp;
let sessionPort: number;
beforeAll(async () => {
  sessionPort = await freePort();
  app = await startWithRegister(TREE_APP, cleanEnv({ TREE: 'fork', HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: scenarios, HARNESS_UNHANDLED: 'error', HARNESS_SESSION_PORT: String(sessionPort) }));
});
afterAll(() => app?.close());

const greeting = async (testId: string) => (await fetch(app.url('/greeting'), { headers: { 'x-harness-test-id': testId } })).text();

test('the first process serves the sessions on HARNESS_SESSION_PORT: it answers a greeting there with its challenge and proof', async () => {
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: sessionPort }, () => socket.write(`${JSON.stringify({ hello: 'a'.repeat(64) })}\n`));
    socket.once('data', (chunk) => {
      resolve(chunk.toString());
      socket.destroy();
    });
    socket.once('error', reject);
  });
  expect(JSON.parse(answer)).toEqual({ nonce: expect.stringMatching(/^[0-9a-f]{64}$/), proof: expect.stringMatching(/^[0-9a-f]{64}$/) });
});

test('lines that are JSON but not the greeting close their connection only: the app and the backend that shares its sessions go on', async () => {
  for (const line of ['1', 'null', '"x"', '[]', '{"hello":1}', `{"id":1,"method":"end","args":["t"]}`]) {
    expect(await sendRaw(sessionPort, `${line}\n`)).toBe('');
  }
  const switched = await fetch(app.url('/__scenario__'), { method: 'POST', headers: { 'x-harness-test-id': 'after', 'content-type': 'application/json' }, body: JSON.stringify({ scenario: 'other' }) });
  expect(switched.status).toBe(200);
  // The backend (a forked process) reads the switch from the first process's sessions.
  expect(await greeting('after')).toBe('otherwise');
  expect(await greeting('someone-else')).toBe('hello');
  expect(app.stderr()).not.toMatch(/TypeError|SyntaxError/);
});

test('a HARNESS_SESSION_PORT another program listens on stops the app at start, saying what to do', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as { port: number }).port;
  try {
    const { code, stdout, stderr } = await runWithRegister(PLAIN_APP, cleanEnv({ FRAMEWORK: 'node', UPSTREAM_ORIGIN: 'http://127.0.0.1:9', HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: scenarios, HARNESS_SESSION_PORT: String(port) }));
    expect(code).toBe(1);
    expect(stdout).not.toContain('listening');
    expect(stderr).toContain(`[scenario-harness] Failed to serve the test sessions on 127.0.0.1:${port} (HARNESS_SESSION_PORT): another program listens on it. Choose a free port, or unset HARNESS_SESSION_PORT to take any free one.`);
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
});

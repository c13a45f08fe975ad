import { execFile, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServe, type ServeProcess } from './serve-process.js';

const SHOP = fileURLToPath(new URL('./fixtures/shop.yaml', import.meta.url));
const PYTHON_CLIENT = fileURLToPath(new URL('./shop_client.py', import.meta.url));
const run = promisify(execFile);

/** python3 and curl are part of the test machine; without them this proof cannot run, and says so. */
for (const tool of ['python3', 'curl']) {
  if (spawnSync(tool, ['--version'], { stdio: 'ignore' }).error !== undefined) throw new Error(`${tool} is not installed; the cross-language test needs it (apt-get install -y ${tool}).`);
}

let serve: ServeProcess;
beforeAll(async () => {
  serve = await startServe(['--unhandled', 'error', SHOP]);
});
afterAll(async () => {
  await serve?.stop();
});

/** The Python client as a child process, driven one step at a time. */
function startPython(testId: string, scenario: string) {
  const child = spawn('python3', [PYTHON_CLIENT, serve.url, testId, scenario], { stdio: ['pipe', 'pipe', 'inherit'] });
  // Listened for at once: the client exits by itself after its last step.
  const closed = new Promise((resolve) => child.once('close', resolve));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    async step(): Promise<{ step: string; status: number; body: unknown }> {
      child.stdin.write("go\n");
      const { value, done } = await lines.next();
      if (done === true) throw new Error('the Python client ended early');
      return JSON.parse(value as string) as { step: string; status: number; body: unknown };
    },
    async end() {
      child.stdin.end();
      await closed;
    },
  };
}

/** One call made by a curl process; the test ID travels in W3C baggage, as a traced service forwards it. */
async function curl(testId: string, method: string, path: string, body?: unknown) {
  const args = ['-sS', '-X', method, '-H', `baggage: tenant=acme, harness-test-id=${encodeURIComponent(testId)}`, '-w', '\n%{http_code}'];
  if (body !== undefined) args.push('-H', 'content-type: application/json', '--data', JSON.stringify(body));
  const { stdout } = await run('curl', [...args, `${serve.url}${path}`]);
  const newline = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(newline + 1)), body: JSON.parse(stdout.slice(0, newline)) as unknown };
}

test('a Python program and curl, with different test IDs in lockstep, each see their own scenario, sequence and state', async () => {
  const pyId = `py-${randomUUID()}`;
  const curlId = `curl ${randomUUID()}`; // a space: percent-encoded in baggage, decoded by the server
  const python = startPython(pyId, 'premium');
  try {
    // Every step of one client lands between two steps of the other.
    expect(await python.step()).toEqual({ step: 'switch', status: 200, body: { success: true, testId: pyId, scenarioId: 'premium' } });
    expect(await curl(curlId, 'POST', '/__scenario__', { scenario: 'declined' })).toEqual({ status: 200, body: { success: true, testId: curlId, scenarioId: 'declined' } });
    expect(await python.step()).toEqual({ step: 'me', status: 200, body: { tier: 'premium' } });
    expect(await curl(curlId, 'GET', '/https/api.shop.example/me')).toEqual({ status: 200, body: { tier: 'standard' } });
    for (const status of ['processing', 'shipped', 'delivered']) {
      expect(await python.step()).toEqual({ step: 'poll', status: 200, body: { id: 'o-1', status } });
      expect(await curl(curlId, 'GET', '/https/api.shop.example/orders/o-1')).toEqual({ status: 200, body: { id: 'o-1', status } });
    }
    expect(await python.step()).toEqual({ step: 'charge', status: 201, body: { id: 'ch_1', amount: 4200 } });
    expect(await curl(curlId, 'POST', '/https/api.stripe.com/v1/charges', { amount: 99 })).toEqual({ status: 402, body: { error: { code: 'card_declined' } } });
    expect(await python.step()).toEqual({ step: 'state', status: 200, body: { testId: pyId, state: { polls: ['o-1', 'o-1', 'o-1'], lastAmount: 4200 } } });
    expect(await curl(curlId, 'GET', '/__harness__/state')).toEqual({ status: 200, body: { testId: curlId, state: { polls: ['o-1', 'o-1', 'o-1'] } } });
  } finally {
    await python.end();
  }
});

test('many Python and curl clients at once, each on its own test ID, never see each other', async () => {
  const clients = Array.from({ length: 6 }, (_, i) => ({ testId: `many-${i}-${randomUUID()}`, scenario: i % 2 === 0 ? 'premium' : 'declined', python: i < 3 }));
  const results = await Promise.all(
    clients.map(async ({ testId, scenario, python }) => {
      if (python) {
        const client = startPython(testId, scenario);
        const steps = [];
        for (let i = 0; i < 7; i++) steps.push(await client.step());
        await client.end();
        return steps.map(({ status }) => status);
      }
      const steps = [await curl(testId, 'POST', '/__scenario__', { scenario })];
      steps.push(await curl(testId, 'GET', '/https/api.shop.example/me'));
      for (let i = 0; i < 3; i++) steps.push(await curl(testId, 'GET', '/https/api.shop.example/orders/o-1'));
      steps.push(await curl(testId, 'POST', '/https/api.stripe.com/v1/charges', { amount: 1 }));
      steps.push(await curl(testId, 'GET', '/__harness__/state'));
      return steps.map(({ status }) => status);
    }),
  );
  clients.forEach(({ scenario }, i) => expect(results[i]).toEqual([200, 200, 200, 200, 200, scenario === 'premium' ? 201 : 402, 200]));
});

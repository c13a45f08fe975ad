/**
 * DNS rebinding with a Host the parser cannot read (issue 37.4): `Host: evil$.example` read
 * another test's journal, while `evil.example` got 403. Browsers send such names (the URL
 * standard allows `$ ! = '` in a host), so a Host that is no host name is refused like a name
 * that is not allowed, on every control endpoint, embedded and in `scenario-harness serve`.
 * Loopback, IP addresses, listed names and requests without a Host keep working.
 * @see https://github.com/scenario-harness/scenario-harness/issues/37
 */
import { fileURLToPath } from 'node:url';
import { createHarness, type Harness } from 'scenario-harness';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { APP_KINDS, head, rawRequest, startApp, type App } from './apps.js';
import { startServe, type ServeProcess } from '../standalone/serve-process.js';

const ODD_NAMES = ['evil$.example', 'ev!l.example', 'evil=x.example', "ev'il.example"];
const VICTIM = 'victim-test';
const scenarios = {
  default: { name: 'Default', mocks: [{ url: 'https://api.bank.example/balance', response: { body: { balance: 1234 } } }] },
  premium: { name: 'Premium', mocks: [] },
};

/** One request to `path` with `host` (`null`: none, as HTTP/1.0 tools send), as the victim's test; its status and body. */
async function send(port: number, method: string, path: string, host: string | null, { body = '', version = '1.1' } = {}) {
  const headers: [string, string][] = [...(host === null ? [] : [['host', host] as [string, string]]), ['x-harness-test-id', VICTIM], ['connection', 'close']];
  if (body !== '') headers.push(['content-type', 'application/json'], ['content-length', String(Buffer.byteLength(body))]);
  const answer = await rawRequest(port, head(`${method} ${path} HTTP/${version}`, headers), body);
  return { status: answer.status, body: answer.body };
}

/** Every control endpoint but the inspector's page (which holds no data and is exempt): method and path. */
function controlRequests(harness: Harness): [string, string, string?][] {
  const { inspector: _page, answer, setScenario, ...reads } = harness.endpoints;
  return [
    ...Object.values(reads).map((path): [string, string] => ['GET', path]),
    ['POST', setScenario, '{"scenario":"premium"}'],
    ['DELETE', setScenario],
    ['POST', reads.getState, '{"state":{"planted":true}}'],
    ['POST', answer, '{"method":"GET","url":"https://api.bank.example/balance","headers":{}}'],
  ];
}

describe.each(APP_KINDS)('odd Host names on the control endpoints (%s)', (kind) => {
  let app: App;
  let harness: Harness;
  beforeAll(async () => {
    harness = createHarness({ enabled: true, scenarios, announce: false, logger: { warn: () => {}, error: () => {} }, control: { allowedHosts: ['harness.test'] } });
    await harness.start();
    app = await startApp(kind, harness);
    // The victim's journal holds a call: what a rebinding page would read.
    await harness.run(VICTIM, () => fetch('https://api.bank.example/balance'));
  });
  afterAll(() => app?.close());

  test.each(ODD_NAMES)('Host %s is refused with 403 on every control endpoint, and changes nothing', async (name) => {
    for (const host of [name, `${name}:${app.port}`]) {
      for (const [method, path, body] of controlRequests(harness)) {
        const answer = await send(app.port, method, path, host, { body });
        expect({ host, method, path, status: answer.status }).toEqual({ host, method, path, status: 403 });
        expect(JSON.parse(answer.body)).toEqual({ error: expect.stringContaining('which is not a host name') });
      }
    }
    expect(await harness.getActiveScenario(VICTIM)).toBeUndefined();
    expect(await harness.getCalls(VICTIM)).toHaveLength(1);
  });

  test('loopback with and without a port, an IP address, a listed name and no Host (HTTP/1.0) still read the journal', async () => {
    const hosts = ['localhost', `localhost:${app.port}`, '127.0.0.1', `127.0.0.1:${app.port}`, '[::1]', `[::1]:${app.port}`, `10.0.0.5:${app.port}`, 'harness.test', `harness.test:${app.port}`];
    for (const host of hosts) {
      const answer = await send(app.port, 'GET', '/__harness__/journal', host);
      expect({ host, status: answer.status }).toEqual({ host, status: 200 });
      expect(JSON.parse(answer.body)).toMatchObject({ testId: VICTIM, calls: [{ url: 'https://api.bank.example/balance' }] });
    }
    const bare = await send(app.port, 'GET', '/__harness__/journal', null, { version: '1.0' });
    expect(bare.status).toBe(200);
    expect(JSON.parse(bare.body)).toMatchObject({ testId: VICTIM, calls: [{ url: 'https://api.bank.example/balance' }] });
  });
});

describe('odd Host names on scenario-harness serve', () => {
  let serve: ServeProcess;
  let port: number;
  beforeAll(async () => {
    serve = await startServe([fileURLToPath(new URL('../standalone/fixtures/shop.yaml', import.meta.url))], { env: { HARNESS_TOKEN: '', HARNESS_ALLOWED_HOSTS: '' } });
    port = Number(new URL(serve.url).port);
    const call = await fetch(`${serve.url}/https/api.shop.example/me`, { headers: { 'x-harness-test-id': VICTIM } });
    expect(call.status).toBe(200);
  });
  afterAll(() => serve?.stop());

  test('the journal and the switch refuse every odd name with 403; localhost still reads the journal', async () => {
    for (const name of ODD_NAMES) {
      for (const host of [name, `${name}:${port}`]) {
        expect((await send(port, 'GET', '/__harness__/journal', host)).status, host).toBe(403);
        expect((await send(port, 'POST', '/__scenario__', host, { body: '{"scenario":"premium"}' })).status, host).toBe(403);
      }
    }
    const own = await send(port, 'GET', '/__harness__/journal', `localhost:${port}`);
    expect(own.status).toBe(200);
    expect(JSON.parse(own.body)).toMatchObject({ testId: VICTIM, calls: [{ url: 'https://api.shop.example/me' }] });
    expect((await send(port, 'GET', '/__scenario__', `127.0.0.1:${port}`)).status).toBe(404);
  });
});

/**
 * createHarness({ control }) beyond the adapter suite's cases: the option's validation, how it
 * meets `access`, `allowCrossSite`, and what is logged.
 */
import { createHarness, type HarnessOptions } from 'scenario-harness';
import { afterEach, expect, test } from 'vitest';

const TOKEN = 'b7e2d94c0a1f4e3d8c6b5a4f3e2d1c0b';
const scenarios = { default: { name: 'Default', mocks: [] }, premium: { name: 'Premium', mocks: [] } };
const started: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  for (const harness of started.splice(0)) await harness.stop();
});

async function harnessWith(options: Partial<HarnessOptions>, warnings: string[] = []) {
  const harness = createHarness({ enabled: true, scenarios, intercept: false, announce: false, logger: { warn: (line) => warnings.push(line), error: () => {} }, ...options });
  await harness.start();
  started.push(harness);
  return harness;
}

const switchAs = (headers: Record<string, string>) =>
  new Request('http://127.0.0.1:3000/__scenario__', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"scenario":"premium"}' });

test('control is checked at creation: its keys with "did you mean", its types, and the two names that belong in it', () => {
  const create = (options: object) => () => createHarness({ enabled: true, scenarios, ...options } as HarnessOptions);
  expect(create({ control: { allowedHost: ['app'] } })).toThrow('Invalid createHarness options: "control.allowedHost" is not a control option (did you mean "allowedHosts"?); use allowedHosts or allowCrossSite.');
  expect(create({ control: { allowedHosts: 'app' } })).toThrow(`expected "control.allowedHosts" to be an array of host names or RegExps or '*' for any, instead got "app".`);
  expect(create({ control: { allowedHosts: ['http://app:3000'] } })).toThrow('expected "control.allowedHosts[0]" to be a host name such as');
  expect(create({ control: { allowCrossSite: 'yes' } })).toThrow('expected "control.allowCrossSite" to be true or false, instead got "yes".');
  expect(create({ control: [] })).toThrow('expected "control" to be { allowedHosts?, allowCrossSite? }, instead got an array.');
  // The did-you-mean distance would point at allowHosts (outgoing calls), which is not what was meant.
  expect(create({ allowedHosts: ['app'] })).toThrow('"allowedHosts" is not an option: the Host names the control endpoints answer go in control: { allowedHosts }; the hosts outgoing calls may reach for real go in allowHosts.');
  expect(create({ allowCrossSite: true })).toThrow('"allowCrossSite" is not an option; it goes in control: { allowCrossSite }.');
  expect(create({ control: { allowedHosts: '*', allowCrossSite: true } })).not.toThrow();
});

test('a refusal is 403 { error } with the fix in x-harness-hint, logged once per kind', async () => {
  const warnings: string[] = [];
  const harness = await harnessWith({}, warnings);
  for (let i = 0; i < 2; i += 1) {
    const answer = (await harness.handle(switchAs({ host: 'app:3000' })))!;
    expect(answer.status).toBe(403);
    expect(await answer.json()).toEqual({
      error:
        'Host not allowed: this control request was addressed to "app:3000", and the control endpoints of this app answer only loopback (localhost, 127.0.0.1, ::1), IP addresses and the names in control.allowedHosts. If the tests reach the app by this name, allow it: createHarness({ control: { allowedHosts: ["app"] } }).',
    });
    expect(answer.headers.get('x-harness-hint')).toContain('scenario-harness serve: --allowed-host app (or HARNESS_ALLOWED_HOSTS=app); scenario-harness/register: HARNESS_ALLOWED_HOSTS=app.');
  }
  expect((await harness.handle(switchAs({ origin: 'http://evil.example' })))!.status).toBe(403);
  expect(warnings).toEqual([expect.stringMatching(/^Refused POST \/__scenario__ addressed to Host "app:3000" with 403/), expect.stringMatching(/^Refused POST \/__scenario__ from a browser on another site with 403/)]);
  expect(await harness.getActiveScenario('default-test')).toBeUndefined();
});

test('with access set, any Host is answered (a rebinding page cannot send the token) unless allowedHosts is given', async () => {
  const authorization = `Bearer ${TOKEN}`;
  const open = await harnessWith({ access: { token: TOKEN } });
  expect((await open.handle(switchAs({ host: 'staging.example.com', authorization })))!.status).toBe(200);
  // Cross-site browser requests are still refused: an authorize() may trust what a browser adds (a proxy's identity header).
  expect((await open.handle(switchAs({ host: 'staging.example.com', authorization, 'sec-fetch-site': 'cross-site' })))!.status).toBe(403);
  await open.stop();
  const listed = await harnessWith({ access: { token: TOKEN }, control: { allowedHosts: ['harness'] } });
  expect((await listed.handle(switchAs({ host: 'harness:9400', authorization })))!.status).toBe(200);
  expect((await listed.handle(switchAs({ host: 'staging.example.com', authorization })))!.status).toBe(403);
});

test('allowCrossSite: true answers pages on other sites; allowedHosts: "*" any Host', async () => {
  const harness = await harnessWith({ control: { allowCrossSite: true, allowedHosts: '*' } });
  expect((await harness.handle(switchAs({ host: 'evil.example', origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' })))!.status).toBe(200);
});

test('a Request built in process without a Host header is checked against its URL only for Origin', async () => {
  const harness = await harnessWith({});
  const request = (headers: Record<string, string>) => new Request('http://app.test/__scenario__', { method: 'POST', headers, body: '{"scenario":"premium"}' });
  expect((await harness.handle(request({})))!.status).toBe(200);
  expect((await harness.handle(request({ origin: 'http://app.test' })))!.status).toBe(200);
  expect((await harness.handle(request({ origin: 'http://evil.example' })))!.status).toBe(403);
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningApp, StartFixture } from './fixture.js';
import type { RawAnswer } from './raw-request.js';
import { sendAsBrowser } from './send-as-browser.js';
import { startUpstream, type Upstream } from './upstream.js';

const HEADER = 'x-harness-test-id';
const EVIL = 'http://evil.example';

/** A 403 as every such refusal looks: JSON with exactly `{ error }`, the help in `x-harness-hint`. */
function refusal(answer: RawAnswer, what: string): string {
  expect(answer.status, what).toBe(403);
  expect(answer.headers['content-type'], what).toContain('application/json');
  expect(answer.headers['x-harness-hint'], what).toEqual(expect.any(String));
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  expect(Object.keys(body), what).toEqual(['error']);
  return body.error as string;
}

/**
 * Browsers on other sites (CSRF) and pages that reach the app through DNS rebinding (issue 23):
 * without `access`, the control endpoints refuse both, and every other caller works as before.
 * Part of the adapter suite.
 */
export function defineCrossSiteCases({ name, start }: { name: string; start: StartFixture }): void {
  describe(`adapter conformance: ${name}, requests from other sites and other Hosts`, () => {
    let upstream: Upstream;
    let app: RunningApp;

    beforeAll(async () => {
      upstream = await startUpstream();
      app = await start({ enabled: true, upstream: upstream.origin });
    });
    afterAll(async () => {
      await app?.close();
      await upstream?.close();
    });

    /** `default-test`'s scenario: what a page without custom headers (no-cors, a form) would switch. */
    const defaultTestScenario = async () => {
      const response = await fetch(app.url('/__scenario__'));
      return response.status === 404 ? undefined : ((await response.json()) as { scenarioId: string }).scenarioId;
    };
    const port = () => new URL(app.url('/')).port;

    test('a switch sent by fetch(…, { mode: "no-cors" }) from another site is refused with 403 and changes nothing', async () => {
      const answer = await sendAsBrowser(app.url('/__scenario__'), {
        method: 'POST',
        headers: { origin: EVIL, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'content-type': 'text/plain;charset=UTF-8' },
        body: '{"scenario":"friendly"}',
      });
      expect(refusal(answer, 'no-cors switch')).toMatch(/^Cross-site request refused: the browser marked it Sec-Fetch-Site: cross-site \(Origin: http:\/\/evil\.example\).*control: \{ allowCrossSite: true \}/);
      expect(await defaultTestScenario()).toBeUndefined();
    });

    test('a <form enctype="text/plain"> posted from another site neither switches nor starts a recording', async () => {
      const form = { origin: EVIL, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'content-type': 'text/plain' };
      // A text/plain form sends `name=value`: name `{"scenario":"friendly","x":"` and value `"}` make JSON.
      refusal(await sendAsBrowser(app.url('/__scenario__'), { method: 'POST', headers: form, body: '{"scenario":"friendly","x":"="}' }), 'form switch');
      refusal(await sendAsBrowser(app.url('/__harness__/record'), { method: 'POST', headers: form, body: '{"mode":"all","x":"="}' }), 'form recording');
      // Nor has a call answered (which could advance a sequence or write state) and read the answer.
      refusal(await sendAsBrowser(app.url('/__harness__/answer'), { method: 'POST', headers: form, body: '{"method":"GET","url":"https://greetings.example.test/upstream/greeting","headers":{},"x":"="}' }), 'form answer');
      expect(await defaultTestScenario()).toBeUndefined();
      const recording = (await (await fetch(app.url('/__harness__/record'))).json()) as { mode: string | null };
      expect(recording.mode).toBeNull();
    });

    test('a foreign Origin from a browser that sends no Sec-Fetch-Site is refused too', async () => {
      const testId = randomUUID();
      const answer = await sendAsBrowser(app.url('/__scenario__'), { method: 'POST', headers: { origin: EVIL, [HEADER]: testId, 'content-type': 'application/json' }, body: '{"scenario":"friendly"}' });
      expect(refusal(answer, 'foreign Origin')).toContain(`its Origin is ${EVIL}, not this app (127.0.0.1:${port()})`);
      refusal(await sendAsBrowser(app.url('/__scenario__'), { method: 'DELETE', headers: { origin: 'null', [HEADER]: testId } }), 'opaque Origin');
      expect((await fetch(app.url('/__scenario__'), { headers: { [HEADER]: testId } })).status).toBe(404);
    });

    test('the journal is not shown to a request addressed to Host evil.example (DNS rebinding)', async () => {
      const testId = randomUUID();
      await fetch(app.url('/greeting'), { headers: { [HEADER]: testId } });
      // A rebinding page is same-origin to the browser: only the Host it addresses gives it away.
      const answer = await sendAsBrowser(app.url('/__harness__/journal'), { host: `evil.example:${port()}`, headers: { 'sec-fetch-site': 'same-origin', [HEADER]: testId } });
      const error = refusal(answer, 'journal on evil.example');
      expect(error).toMatch(/^Host not allowed: this control request was addressed to "evil\.example:\d+".*control: \{ allowedHosts: \["evil\.example"\] \}/);
      expect(answer.text).not.toContain('upstream');
      refusal(await sendAsBrowser(app.url('/__scenario__'), { method: 'POST', host: 'evil.example', headers: { 'content-type': 'application/json' }, body: '{"scenario":"friendly"}' }), 'switch on evil.example');
      expect(await defaultTestScenario()).toBeUndefined();
      const journal = (await (await fetch(app.url('/__harness__/journal'), { headers: { [HEADER]: testId } })).json()) as { calls: unknown[] };
      expect(journal.calls).toHaveLength(1);
    });

    test('same-origin pages, dev proxies, loopback names, IP addresses and clients without Origin are answered', async () => {
      const testId = randomUUID();
      const json = { 'content-type': 'application/json', [HEADER]: testId };
      const switches: [string, { host?: string; headers: Record<string, string> }][] = [
        ['a same-origin page', { headers: { ...json, origin: `http://127.0.0.1:${port()}`, 'sec-fetch-site': 'same-origin' } }],
        ['a page of the same site on another port', { host: `localhost:${port()}`, headers: { ...json, origin: 'http://localhost:5173', 'sec-fetch-site': 'same-site' } }],
        ['a URL typed into the address bar', { headers: { ...json, 'sec-fetch-site': 'none' } }],
        ['a Vite dev server forwarding the Host', { host: 'localhost:5173', headers: { ...json, origin: 'http://localhost:5173' } }],
        ['a *.localhost name', { host: `app.localhost:${port()}`, headers: json }],
        ['::1', { host: `[::1]:${port()}`, headers: json }],
        ['an IP address beyond loopback', { host: `10.0.0.5:${port()}`, headers: json }],
        ['a client without Origin', { headers: json }],
      ];
      for (const [what, { host, headers }] of switches) {
        const answer = await sendAsBrowser(app.url('/__scenario__'), { method: 'POST', ...(host === undefined ? {} : { host }), headers, body: '{"scenario":"friendly"}' });
        expect(answer.status, what).toBe(200);
      }
      // A link from another site to the inspector page: the page holds no data, its data calls are checked.
      // (At /__harness__: Next.js redirects /__harness__/ there.)
      expect((await sendAsBrowser(app.url('/__harness__'), { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' } })).status).toBe(200);
    });

  });

  describe(`adapter conformance: ${name}, control: { allowedHosts }`, () => {
    let upstream: Upstream;
    let configured: RunningApp;

    beforeAll(async () => {
      upstream = await startUpstream();
      configured = await start({ enabled: true, upstream: upstream.origin, control: { allowedHosts: ['harness.test'] } });
    });
    afterAll(async () => {
      await configured?.close();
      await upstream?.close();
    });

    test('a name in control.allowedHosts is answered; other names are still refused', async () => {
      const testId = randomUUID();
      const { port: configuredPort } = new URL(configured.url('/'));
      const send = (host: string) =>
        sendAsBrowser(configured.url('/__scenario__'), { method: 'POST', host, headers: { 'content-type': 'application/json', [HEADER]: testId }, body: '{"scenario":"grumpy"}' });
      expect((await send(`harness.test:${configuredPort}`)).status).toBe(200);
      expect((await send('HARNESS.TEST.')).status).toBe(200);
      refusal(await send(`evil.example:${configuredPort}`), 'a name not listed');
      const active = await fetch(configured.url('/__scenario__'), { headers: { [HEADER]: testId } });
      expect(((await active.json()) as { scenarioId: string }).scenarioId).toBe('grumpy');
    });
  });
}

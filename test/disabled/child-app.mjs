// Started by enabled-false.test.ts: builds the app the way production would and reports.
import { register } from 'node:module';
register('./record-loads.mjs', import.meta.url);

const { createHarness } = await import('scenario-harness');
const { harnessMiddleware } = await import('scenario-harness/express');
const enabled = process.env.HARNESS_ENABLED === 'true';
const harness = createHarness({ enabled, scenarios: { default: { name: 'D', mocks: [{ url: 'https://a.test/x', response: { body: 1 } }] } } });
const originalFetch = globalThis.fetch;
await harness.start();

// The Express middleware must read no header when disabled: a request whose headers throw on access.
const [handleRequest] = harnessMiddleware(harness);
let headerRead = false;
// Disabled, even a control path must pass through to the app (enabled, probe an ordinary page).
const path = enabled ? '/page' : '/__scenario__';
const req = { get headers() { headerRead = true; return {}; }, originalUrl: path, path };
let passedThrough = false;
await handleRequest(req, {}, () => (passedThrough = true));

process.stdout.write(JSON.stringify({ fetchPatched: globalThis.fetch !== originalFetch, headerRead, passedThrough }));
await harness.stop();

// Started by enabled-false.test.ts: builds the app the way production would and reports.
import { register } from 'node:module';
register('./record-loads.mjs', import.meta.url);

const { createHarness } = await import('scenario-harness');
const { harnessMiddleware } = await import('scenario-harness/express');
const enabled = process.env.HARNESS_ENABLED === 'true';
// CONTRACTS=true: the same app with contracts configured (a one-path document as an object); CONTRACTS=llm: llm answers' checks alone.
const contracts = process.env.CONTRACTS === 'llm' ? { llm: true } : process.env.CONTRACTS === 'true' ? { openapi: [{ openapi: '3.1.0', info: { title: 'A', version: '1' }, servers: [{ url: 'https://a.test' }], paths: { '/x': { get: { responses: { 200: { description: 'one', content: { 'application/json': { schema: { type: 'integer' } } } } } } } } }] } : undefined;
const harness = createHarness({ enabled, scenarios: { default: { name: 'D', mocks: [{ url: 'https://a.test/x', response: { body: 1 } }] } }, ...(contracts === undefined ? {} : { contracts }) });
const originalFetch = globalThis.fetch;
await harness.start();
// Enabled, one outgoing call is answered: what answering loads is in the list too.
if (enabled) await (await fetch('https://a.test/x')).text();

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

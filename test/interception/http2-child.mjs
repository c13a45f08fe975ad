// Started by http2-passthrough.test.ts with NODE_EXTRA_CA_CERTS naming the upstream's certificate:
// fetches the HTTPS upstream (which speaks HTTP/2 and HTTP/1.1) before the harness starts, then
// through the harness's pass-through with global fetch and a fetch captured before start().
import { createHarness } from 'scenario-harness';

const url = process.env.UPSTREAM_URL;
const capturedFetch = globalThis.fetch;
// Each step says so on stderr first: if the parent's deadline kills this child, its error shows the step that never finished.
const step = (name) => process.stderr.write(`step: ${name}\n`);
const read = async (get) => {
  const response = await get(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n: 1 }) });
  return { status: response.status, body: await response.json() };
};

step('fetch before start()');
const before = await read(fetch);
const harness = createHarness({
  enabled: true,
  unhandled: 'error',
  logger: { info() {}, warn() {}, error: (message) => console.error(message) },
  scenarios: { default: { name: 'Default', mocks: [{ url: 'https://api.x.test/mocked', response: { body: { mocked: true } } }] } },
});
step('start()');
await harness.start();
step('global fetch, passed through');
const viaFetch = await harness.run('h2-test', () => read(fetch));
step('captured fetch, passed through');
const viaCaptured = await harness.run('h2-test', () => read(capturedFetch));
step('captured fetch, mocked');
const mocked = await harness.run('h2-test', async () => (await capturedFetch('https://api.x.test/mocked')).json());
step('stop()');
await harness.stop();
console.log(JSON.stringify({ before, viaFetch, viaCaptured, mocked }));

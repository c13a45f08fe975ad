// Child process: micro-benchmark of ONE outgoing-fetch interception subject.
//   node bench/micro.js <subject> <warmup> <n>
// Sequential `await fetch(URL)` + reading the JSON body, N times after a warm-up;
// reports the mean (and p50/p99) per-call cost in microseconds.
// subjects:
//   floor       globalThis.fetch replaced by a function returning a Response
//   floor-als   the same, called inside an AsyncLocalStorage.run (the per-test context every
//               per-test tool needs; in Node 20 its hooks run for every promise)
//   interceptor @mswjs/interceptors FetchInterceptor answering directly
//   msw         MSW setupServer with one static handler
//   scenarist   Scenarist (core + msw-adapter dynamic handler), inside its AsyncLocalStorage
//   harness     scenario-harness, inside harness.run(testId, ...)
//   undici-mockagent  undici.request answered by undici's own MockAgent (persisted intercept)
//   undici-mockagent-als  the same, called inside an AsyncLocalStorage.run
//   harness-undici    undici.request answered by scenario-harness (the global dispatcher), inside harness.run
//   undici-floor      undici.request answered by a global dispatcher that only writes one pre-built
//                     reply (no matching, no bookkeeping): what undici itself costs a mocked call
//   undici-floor-als  the same, called inside an AsyncLocalStorage.run
//   fetch-mockagent   Node's own fetch answered by undici's MockAgent set as the global dispatcher
//   harness-captured  a fetch captured before harness.start() (as SDKs hold it), answered through
//                     the harness's global dispatcher, inside harness.run
// The undici subjects time `await request(URL)` + `await body.json()` instead of fetch.
import { timeSequentialCalls } from './lib/time-sequential-calls.js';
import { MICRO_BODY as BODY, MICRO_URL as URL_, startMicroHarness } from './lib/micro-harness.js';
import { failChild } from './lib/proc.js';

const [subject, warmupArg, nArg] = process.argv.slice(2);
const WARMUP = Number(warmupArg || 500);
const N = Number(nArg || 2000);
const BODY_TEXT = JSON.stringify(BODY);

/** A call of undici's own request API that reads the JSON body, shaped like a fetch Response for the timing loop. */
function undiciCall(request) {
  return async (url) => {
    const { statusCode, body } = await request(url);
    const json = await body.json();
    return { status: statusCode, json: async () => json, text: async () => JSON.stringify(json) };
  };
}

/**
 * A dispatcher that answers every call with the same reply, written to undici's handler before
 * `dispatch` returns (both handler shapes): the least any in-process undici mock can do.
 */
function prebuiltReplyDispatcher() {
  const raw = [Buffer.from('content-type'), Buffer.from('application/json')];
  const body = Buffer.from(BODY_TEXT);
  const controller = { aborted: false, paused: false, reason: null, abort() {}, pause() {}, resume() {} };
  return {
    dispatch(_options, handler) {
      if (typeof handler.onRequestStart === 'function' || typeof handler.onResponseStart === 'function') {
        handler.onRequestStart?.(controller, {});
        handler.onResponseStart?.(controller, 200, { 'content-type': 'application/json' }, 'OK');
        handler.onResponseData?.(controller, body);
        handler.onResponseEnd?.(controller, {});
      } else {
        handler.onConnect?.(() => {}, {});
        handler.onHeaders?.(200, raw, () => {}, 'OK');
        handler.onData?.(body);
        handler.onComplete?.([]);
      }
      return true;
    },
    close: async () => {},
    destroy: async () => {},
  };
}

/** A wrapper that runs the timing loop inside an AsyncLocalStorage, as a per-test tool's calls run. */
async function inContext() {
  const { AsyncLocalStorage } = await import('node:async_hooks');
  const storage = new AsyncLocalStorage();
  return (fn) => storage.run('micro-test', fn);
}

async function setupHarness() {
  const { loadHarness } = await import('./lib/harness-glue.js');
  return startMicroHarness(await loadHarness(), 'bypass');
}

async function setup() {
  if (subject === 'floor' || subject === 'floor-als') {
    globalThis.fetch = async () => new Response(BODY_TEXT, { headers: { 'content-type': 'application/json' } });
    return { wrap: subject === 'floor' ? (fn) => fn() : await inContext(), stop: async () => {} };
  }
  if (subject === 'interceptor') {
    const { FetchInterceptor } = await import('@mswjs/interceptors/fetch');
    const interceptor = new FetchInterceptor();
    interceptor.apply();
    interceptor.on('request', ({ controller }) => {
      controller.respondWith(new Response(BODY_TEXT, { headers: { 'content-type': 'application/json' } }));
    });
    return { wrap: (fn) => fn(), stop: async () => interceptor.dispose() };
  }
  if (subject === 'msw') {
    const { setupServer } = await import('msw/node');
    const { http, HttpResponse } = await import('msw');
    const server = setupServer(http.get(URL_, () => HttpResponse.json(BODY)));
    server.listen({ onUnhandledRequest: 'bypass' });
    return { wrap: (fn) => fn(), stop: async () => server.close() };
  }
  if (subject === 'scenarist') {
    const { createScenaristGlue } = await import('./lib/scenarist-glue.js');
    const mk = (id, mocks) => ({ id, name: id, description: '', mocks });
    const s = createScenaristGlue({
      scenarios: {
        default: mk('default', []),
        micro: mk('micro', [{ method: 'GET', url: URL_, response: { status: 200, body: BODY } }]),
      },
    });
    s.start();
    const r = s.manager.switchScenario('micro-test', 'micro');
    if (!r.success) throw r.error;
    return { wrap: (fn) => s.testIdStorage.run('micro-test', fn), stop: async () => s.stop() };
  }
  if (subject === 'harness') return setupHarness();
  if (subject === 'undici-mockagent' || subject === 'undici-mockagent-als') {
    const { MockAgent, setGlobalDispatcher, request } = await import('undici');
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get('https://api.bench.test').intercept({ path: '/micro/ping', method: 'GET' }).reply(200, BODY, { headers: { 'content-type': 'application/json' } }).persist();
    setGlobalDispatcher(agent);
    return { wrap: subject === 'undici-mockagent' ? (fn) => fn() : await inContext(), stop: async () => agent.close(), call: undiciCall(request) };
  }
  if (subject === 'undici-floor' || subject === 'undici-floor-als') {
    const { setGlobalDispatcher, request } = await import('undici');
    setGlobalDispatcher(prebuiltReplyDispatcher());
    return { wrap: subject === 'undici-floor' ? (fn) => fn() : await inContext(), stop: async () => {}, call: undiciCall(request) };
  }
  if (subject === 'fetch-mockagent') {
    const { MockAgent, setGlobalDispatcher } = await import('undici');
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get('https://api.bench.test').intercept({ path: '/micro/ping', method: 'GET' }).reply(200, BODY, { headers: { 'content-type': 'application/json' } }).persist();
    setGlobalDispatcher(agent);
    // Node's own fetch, not the undici package's: it reads the global dispatcher slot the package wrote.
    return { wrap: (fn) => fn(), stop: async () => agent.close(), call: globalThis.fetch };
  }
  if (subject === 'harness-captured') {
    const captured = globalThis.fetch;
    const { wrap, stop } = await setupHarness();
    return { wrap, stop, call: captured };
  }
  if (subject === 'harness-undici') {
    const { request } = await import('undici');
    const { wrap, stop } = await setupHarness();
    return { wrap, stop, call: undiciCall(request) };
  }
  throw new Error(`unknown micro subject ${subject}`);
}

async function main() {
  const { wrap, stop, call } = await setup();
  // `call` (undici.request) or the global fetch, looked up after setup: a subject may have replaced it.
  const result = await wrap(() => timeSequentialCalls({ call: call ?? globalThis.fetch, url: URL_, bodyText: BODY_TEXT, warmup: WARMUP, n: N, label: subject }));
  await stop();
  const cpu = process.cpuUsage();
  const cpuS = (cpu.user + cpu.system) / 1e6; // this process's whole life, for the parent's CPU accounting
  process.send({ type: 'result', subject, n: N, warmup: WARMUP, ...result, cpuS }, () => process.exit(0));
}

main().catch(failChild);

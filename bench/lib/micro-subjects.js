// The subjects of the micro-benchmarks on Node (bench/micro.js: one process per subject and round;
// bench/micro-paired.js: two processes alternating blocks). setupMicroSubject(subject) returns
// { wrap, stop, call }: `call(url)` answers like a fetch Response (status, json(), text()), and
// `wrap(fn)` runs the timing loop (inside harness.run for the harness's subjects).
//
// A subject loads only what it names: the MockAgent and floor subjects load undici (or nothing)
// and no code of the harness, no AsyncLocalStorage and no patch.
//
// subjects:
//   floor             globalThis.fetch replaced by a function returning a Response
//   floor-als         the same, called inside an AsyncLocalStorage.run (the per-test context every
//                     per-test tool needs; on Node 22 its promise hooks run for every promise)
//   interceptor       @mswjs/interceptors FetchInterceptor answering directly
//   msw               MSW setupServer with one static handler
//   scenarist         Scenarist (core + msw-adapter dynamic handler), inside its AsyncLocalStorage
//   harness           scenario-harness, fetch, inside harness.run(testId, ...)
//   undici-mockagent  undici.request answered by undici's own MockAgent (persisted intercept),
//                     passed as `dispatcher`: bare, in a process of its own
//   undici-mockagent-als  the same, called inside an AsyncLocalStorage.run
//   harness-undici    undici.request answered by scenario-harness (the global dispatcher), inside harness.run
//   undici-floor      undici.request answered by a dispatcher that only writes one pre-built reply
//                     (no matching, no bookkeeping): what undici itself costs a mocked call
//   undici-floor-als  the same, called inside an AsyncLocalStorage.run
//   fetch-mockagent   Node's own fetch over undici's MockAgent, set as the global dispatcher and
//                     passed as `dispatcher`: bare, in a process of its own
//   harness-captured  a fetch captured before harness.start() (as SDKs hold it), answered through
//                     the harness's global dispatcher, inside harness.run
//   harness-axios     axios (node:https) answered by scenario-harness, inside harness.run
//   harness-got       got (node:https) answered by scenario-harness, inside harness.run
//   harness-axios-http  axios calling the same mock over plain http (node:http)
//   harness-axios-041, harness-got-041, harness-axios-http-041
//                     the same on the previous build, the last on @mswjs/interceptors 0.41
//                     (bench/previous-build.js builds it outside the repository)
import { MICRO_BODY as BODY, MICRO_HTTP_URL, MICRO_URL as URL_, startMicroHarness } from './micro-harness.js';

const BODY_TEXT = JSON.stringify(BODY);
const MOCK_ORIGIN = new URL(URL_).origin;
const MOCK_PATH = new URL(URL_).pathname;

export const MICRO_BODY_TEXT = BODY_TEXT;

/** A call of undici's own request API that reads the JSON body, shaped like a fetch Response for the timing loop. */
function undiciCall(request, options) {
  return async (url) => {
    const { statusCode, body } = await request(url, options);
    const json = await body.json();
    return { status: statusCode, json: async () => json, text: async () => JSON.stringify(json) };
  };
}

/** axios (its node:http adapter, the default on Node), shaped like a fetch Response. */
async function axiosCall() {
  const { default: axios } = await import('axios');
  const client = axios.create();
  return async (url) => {
    const { status, data } = await client.get(url);
    return { status, json: async () => data, text: async () => JSON.stringify(data) };
  };
}

/** got (node:http), shaped like a fetch Response; no retries, as a mocked call never needs one. */
async function gotCall() {
  const { default: got } = await import('got');
  const client = got.extend({ retry: { limit: 0 }, responseType: 'json' });
  return async (url) => {
    const { statusCode, body } = await client.get(url);
    return { status: statusCode, json: async () => body, text: async () => JSON.stringify(body) };
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

/** undici's MockAgent with the micro URL's answer, persisted. */
async function mockAgent() {
  const undici = await import('undici');
  const agent = new undici.MockAgent();
  agent.disableNetConnect();
  agent.get(MOCK_ORIGIN).intercept({ path: MOCK_PATH, method: 'GET' }).reply(200, BODY, { headers: { 'content-type': 'application/json' } }).persist();
  return { undici, agent };
}

/** The harness of this run's build, or of the previous build (`previous`: @mswjs/interceptors 0.41). */
async function setupHarness(previous = false) {
  const { loadHarness, loadPreviousHarness } = await import('./harness-glue.js');
  return startMicroHarness(previous ? await loadPreviousHarness() : await loadHarness(), 'bypass');
}

/**
 * `url`, when given, is the URL the subject calls instead of the micro URL.
 * @returns {Promise<{ wrap: (fn: () => Promise<any>) => Promise<any>, stop: () => Promise<void>, call?: (url: string) => Promise<any>, url?: string }>}
 */
export async function setupMicroSubject(subject) {
  const bare = (fn) => fn();
  if (subject === 'floor' || subject === 'floor-als') {
    globalThis.fetch = async () => new Response(BODY_TEXT, { headers: { 'content-type': 'application/json' } });
    return { wrap: subject === 'floor' ? bare : await inContext(), stop: async () => {} };
  }
  if (subject === 'interceptor') {
    const { FetchInterceptor } = await import('@mswjs/interceptors/fetch');
    const interceptor = new FetchInterceptor();
    interceptor.apply();
    interceptor.on('request', ({ controller }) => {
      controller.respondWith(new Response(BODY_TEXT, { headers: { 'content-type': 'application/json' } }));
    });
    return { wrap: bare, stop: async () => interceptor.dispose() };
  }
  if (subject === 'msw') {
    const { setupServer } = await import('msw/node');
    const { http, HttpResponse } = await import('msw');
    const server = setupServer(http.get(URL_, () => HttpResponse.json(BODY)));
    server.listen({ onUnhandledRequest: 'bypass' });
    return { wrap: bare, stop: async () => server.close() };
  }
  if (subject === 'scenarist') {
    const { createScenaristGlue } = await import('./scenarist-glue.js');
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
    const { undici, agent } = await mockAgent();
    return { wrap: subject === 'undici-mockagent' ? bare : await inContext(), stop: async () => agent.close(), call: undiciCall(undici.request, { dispatcher: agent }) };
  }
  if (subject === 'undici-floor' || subject === 'undici-floor-als') {
    const { setGlobalDispatcher, request } = await import('undici');
    setGlobalDispatcher(prebuiltReplyDispatcher());
    return { wrap: subject === 'undici-floor' ? bare : await inContext(), stop: async () => {}, call: undiciCall(request) };
  }
  if (subject === 'fetch-mockagent') {
    const { undici, agent } = await mockAgent();
    undici.setGlobalDispatcher(agent);
    // Node's own fetch, not the undici package's: it reads the global dispatcher slot the package wrote.
    const nodeFetch = globalThis.fetch;
    return { wrap: bare, stop: async () => agent.close(), call: (url) => nodeFetch(url, { dispatcher: agent }) };
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
  const nodeHttp = /^harness-(axios|got)(-http)?(-041)?$/.exec(subject);
  if (nodeHttp) {
    // The client is made before the harness starts, as an app's module-level client is.
    const call = nodeHttp[1] === 'axios' ? await axiosCall() : await gotCall();
    const { wrap, stop } = await setupHarness(nodeHttp[3] !== undefined);
    return { wrap, stop, call, ...(nodeHttp[2] ? { url: MICRO_HTTP_URL } : {}) };
  }
  throw new Error(`unknown micro subject ${subject}`);
}

// Child process: the Express application under test, wired to ONE subject.
//   node bench/app.js <subject> <workload> [upstreamPort]
// subjects: harness | scenarist | msw | upstream | limit | floor | harness-axios | harness-axios-041 | ...
// Every subject serves the same two routes with the same bodies:
//   GET  /items/:id  -> fetch(GET  <origin>/items/:id)        -> JSON body back
//   POST /price      -> fetch(POST <origin>/price {sku, qty}) -> JSON body back
// except `limit`, which answers the same bodies from a Map with no outgoing call, and
// `harness-axios` / `harness-axios-041`, whose routes make the same calls with axios (node:http),
// answered by this build and by the previous one (@mswjs/interceptors 0.41, bench/previous-build.js).
import http from 'node:http';
import express from 'express';
import { buildWorkload, MOCK_ORIGIN, answerMap, mapKey } from './lib/workloads.js';
import { failChild } from './lib/proc.js';

const [subject, workload, upstreamPort] = process.argv.slice(2);

async function main() {
  const spec = buildWorkload(workload);
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(express.json());

  let origin = MOCK_ORIGIN;
  let stop = async () => {};

  // axios, made before the harness starts as an app's module-level client is; any status resolves.
  const axios = subject.startsWith('harness-axios') ? (await import('axios')).default.create({ validateStatus: () => true }) : undefined;

  if (subject === 'harness' || subject === 'harness-nojournal' || subject === 'harness-contracts' || axios) {
    const { loadHarness, loadPreviousHarness, toHarnessScenarios } = await import('./lib/harness-glue.js');
    const { createHarness, defineScenarios, harnessMiddleware } = subject === 'harness-axios-041' ? await loadPreviousHarness() : await loadHarness();
    const harness = createHarness({
      enabled: true,
      scenarios: toHarnessScenarios(spec.scenarios, defineScenarios),
      unhandled: 'bypass',
      // The journal is on by default; 'harness-nojournal' measures what it costs.
      ...(subject === 'harness-nojournal' ? { journal: false } : {}),
      // 'harness-contracts' checks every call and answer against an OpenAPI document of the bench API (issue 27).
      ...(subject === 'harness-contracts' ? { contracts: { openapi: [(await import('./lib/bench-openapi.js')).benchOpenApi] } } : {}),
    });
    await harness.start();
    app.use(harnessMiddleware(harness));
    stop = () => harness.stop();
  } else if (subject === 'scenarist') {
    const { createScenaristGlue, toScenaristScenarios } = await import('./lib/scenarist-glue.js');
    const s = createScenaristGlue({ scenarios: toScenaristScenarios(spec.scenarios) });
    s.start();
    app.use(s.middleware);
    stop = async () => s.stop();
  } else if (subject === 'msw') {
    const { setupServer } = await import('msw/node');
    const { http: mswHttp, HttpResponse } = await import('msw');
    // static handlers, one per mock of the (single) active scenario
    const handlers = spec.scenarios[0].mocks.map((m) => {
      const url = MOCK_ORIGIN + m.path;
      if (m.matchBody) {
        const want = m.matchBody.sku;
        return mswHttp.post(url, async ({ request }) => {
          // each handler reads its own clone: the request body can only be read once
          const body = await request.clone().json();
          if (!body || body.sku !== want) return undefined;
          return HttpResponse.json(m.body);
        });
      }
      return mswHttp.get(url, () => HttpResponse.json(m.body));
    });
    const server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: 'bypass' });
    stop = async () => server.close();
  } else if (subject === 'floor') {
    // The floor of any fetch mock: globalThis.fetch replaced by a function that answers every
    // call with a new Response of the right body. No test ID, no lookup, no journal: what is
    // left is the app's own fetch, Response and JSON work, which every mocking tool pays.
    const answers = answerMap(spec);
    globalThis.fetch = async (url, init) => {
      const { pathname } = new URL(url);
      const sku = init?.body === undefined ? undefined : JSON.parse(init.body).sku;
      const body = answers.get(mapKey(init?.method ?? 'GET', pathname, sku));
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    };
  } else if (subject === 'harness-register') {
    // No harness code: bench/run.js starts this app with --import scenario-harness/register.
  } else if (subject === 'upstream') {
    if (!upstreamPort) throw new Error('upstream subject needs the upstream port');
    origin = `http://127.0.0.1:${upstreamPort}`;
  } else if (subject !== 'limit' && subject !== 'limit-register-off') {
    throw new Error(`unknown subject ${subject}`);
  }

  // limit-register-off: the limit app started with --import scenario-harness/register and
  // HARNESS_ENABLED unset, as in production: register must cost it nothing.
  if (subject === 'limit' || subject === 'limit-register-off') {
    const answers = answerMap(spec);
    app.get('/items/:id', (req, res) => {
      const body = answers.get(mapKey('GET', `/items/${req.params.id}`));
      if (body === undefined) return res.status(404).json({ error: 'no answer' });
      res.json(body);
    });
    app.post('/price', (req, res) => {
      const body = answers.get(mapKey('POST', '/price', req.body?.sku));
      if (body === undefined) return res.status(404).json({ error: 'no answer' });
      res.json(body);
    });
  } else if (axios) {
    // The same two calls through axios: it parses the JSON itself.
    const answer = (res, r) => {
      if (r.status < 200 || r.status > 299) res.status(502).json({ error: `upstream answered ${r.status}`, body: r.data });
      else res.json(r.data);
    };
    app.get('/items/:id', async (req, res, next) => {
      try {
        answer(res, await axios.get(`${origin}/items/${req.params.id}`));
      } catch (err) {
        next(err);
      }
    });
    app.post('/price', async (req, res, next) => {
      try {
        answer(res, await axios.post(`${origin}/price`, { sku: req.body?.sku, qty: req.body?.qty }));
      } catch (err) {
        next(err);
      }
    });
  } else {
    app.get('/items/:id', async (req, res, next) => {
      try {
        const r = await fetch(`${origin}/items/${req.params.id}`);
        if (!r.ok) {
          res.status(502).json({ error: `upstream answered ${r.status}`, body: await r.text() });
          return;
        }
        res.json(await r.json());
      } catch (err) {
        next(err);
      }
    });
    app.post('/price', async (req, res, next) => {
      try {
        const r = await fetch(`${origin}/price`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ sku: req.body?.sku, qty: req.body?.qty }),
        });
        if (!r.ok) {
          res.status(502).json({ error: `upstream answered ${r.status}`, body: await r.text() });
          return;
        }
        res.json(await r.json());
      } catch (err) {
        next(err);
      }
    });
  }

  // four arguments: Express recognises an error handler by its arity
  app.use((err, _req, res, _next) => {
    res.status(500).json({ error: String(err && err.message ? err.message : err) });
  });

  const server = http.createServer(app);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const shutdown = async () => {
    server.close();
    server.closeAllConnections?.();
    await stop();
    process.exit(0);
  };
  process.on('SIGTERM', shutdown);
  process.on('disconnect', shutdown);
  process.send({ type: 'ready', port: server.address().port, pid: process.pid });
}

main().catch(failChild);

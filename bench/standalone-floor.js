// Child process: the floors of the standalone-server benchmark, plain node:http with no engine.
//   node bench/standalone-floor.js echo <workload>            answers each test ID's request from a Map
//   node bench/standalone-floor.js proxy <workload> <port>    forwards every request to an echo on <port>
// The echo is the least any server can do per request; the proxy is what a transparent
// HTTP proxy in front of a fast upstream costs (the standalone server in front of a mock is one).
import http from 'node:http';
import { failChild } from './lib/proc.js';
import { answersByTestId, buildStandaloneWorkload } from './lib/standalone-load.js';
import { HARNESS_HEADER } from './lib/workloads.js';

const [mode, workload, upstreamPort] = process.argv.slice(2);

function echo() {
  const answers = answersByTestId(buildStandaloneWorkload(workload));
  return (req, res) => {
    const body = answers.get(req.headers[HARNESS_HEADER])?.body;
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no answer"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  };
}

function proxy() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  return (req, res) => {
    const outgoing = http.request({ host: '127.0.0.1', port: Number(upstreamPort), method: req.method, path: req.url, headers: req.headers, agent }, (upstream) => {
      res.writeHead(upstream.statusCode, upstream.headers);
      upstream.pipe(res);
    });
    outgoing.on('error', (error) => res.writeHead(502).end(String(error)));
    req.pipe(outgoing);
  };
}

async function main() {
  const server = http.createServer(mode === 'proxy' ? proxy() : echo());
  server.keepAliveTimeout = 65_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const shutdown = () => {
    server.close();
    server.closeAllConnections?.();
    process.exit(0);
  };
  process.on('SIGTERM', shutdown);
  process.on('disconnect', shutdown);
  process.send({ type: 'ready', port: server.address().port });
}

main().catch(failChild);

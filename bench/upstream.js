// Child process: a real upstream HTTP server on loopback (plain node:http),
// answering the workload's mocks from a Map of pre-serialised bodies.
//   node bench/upstream.js <workload>
import http from 'node:http';
import { buildWorkload, answerMap, mapKey } from './lib/workloads.js';
import { failChild } from './lib/proc.js';

const [workload] = process.argv.slice(2);

async function main() {
  const spec = buildWorkload(workload);
  const answers = new Map();
  for (const [k, v] of answerMap(spec)) answers.set(k, JSON.stringify(v));

  const send = (res, body) => {
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"no answer"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };

  const server = http.createServer((req, res) => {
    if (req.method === 'GET') {
      send(res, answers.get(mapKey('GET', req.url)));
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let sku;
      try {
        sku = JSON.parse(Buffer.concat(chunks).toString('utf8')).sku;
      } catch {
        sku = undefined;
      }
      send(res, answers.get(mapKey(req.method, req.url, sku)));
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const shutdown = () => {
    server.close();
    server.closeAllConnections?.();
    process.exit(0);
  };
  process.on('SIGTERM', shutdown);
  process.on('disconnect', shutdown);
  process.send({ type: 'ready', port: server.address().port, pid: process.pid });
}

main().catch(failChild);

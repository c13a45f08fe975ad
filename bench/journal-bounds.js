// What the journal keeps at its worst, and how much memory a large upload costs (issue 23, items 3
// and 4): the figures docs/journal.md states.
//
//   npm run build && node bench/journal-bounds.js            # every measurement, each in its own process
//   node --expose-gc bench/journal-bounds.js entry           # one of them: entry | serve | upload
//
// entry  — heap per journal entry (full GCs around the calls) for an 8 KB body shaped `[[],[],…]`
//          and a plain 8 KB text body, 200 calls in embedded mode, one test ID per call.
// serve  — 2,000 such `[[],…]` calls sent to the standalone server (20 test IDs × 100 calls):
//          heap and RSS growth of the process.
// upload — a 300 MiB upload answered by a mock, chunked and with a Content-Length: in embedded mode
//          through fetch (a stream body) and node:http, and sent to the standalone server; peak RSS
//          of the process (`process.resourceUsage().maxRSS`), one process per case.
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import { ReadableStream } from 'node:stream/web';
import { fileURLToPath } from 'node:url';
import { createHarness, createMemoryStore, defineScenarios } from 'scenario-harness';
import { createStandaloneServer } from '../dist/server/standalone-server.js';

const API = 'https://api.bench.test';
const scenarios = defineScenarios({
  default: { name: 'Default', mocks: [{ method: 'POST', url: `${API}/upload`, response: { status: 201, body: { ok: true } } }] },
});
/** 8 KB of `[[],[],…]`: the body whose parsed form costs most per byte. */
const NESTED = `[${Array.from({ length: 2730 }, () => '[]').join(',')}]`;
const PLAIN = 'x'.repeat(8192);
const HEADERS = { 'content-type': 'application/json', authorization: 'Bearer sk_test_123', 'user-agent': 'bench/1.0', 'x-request-id': 'req_000000000001' };
const MiB = 1024 * 1024;

const heap = () => {
  for (let i = 0; i < 4; i++) globalThis.gc();
  return process.memoryUsage().heapUsed;
};

async function entry() {
  const rows = [];
  for (const [label, body] of [
    ['8 KB `[[],[],…]` JSON', NESTED],
    ['8 KB plain text', PLAIN],
  ]) {
    const store = createMemoryStore();
    const harness = createHarness({ enabled: true, scenarios, announce: false, store });
    await harness.start();
    await (await fetch(`${API}/upload`, { method: 'POST', headers: { ...HEADERS, 'x-harness-test-id': 'warm' }, body })).arrayBuffer();
    await harness.getCalls('warm');
    const before = heap();
    const keptBefore = store.journalBytes;
    for (let n = 0; n < 200; n++) await (await fetch(`${API}/upload`, { method: 'POST', headers: { ...HEADERS, 'x-harness-test-id': `t-${n}` }, body })).arrayBuffer();
    for (let n = 0; n < 200; n++) await harness.getCalls(`t-${n}`);
    const after = heap();
    const [kept] = await harness.getCalls('t-0');
    rows.push({
      body: label,
      'heap per entry (KiB)': ((after - before) / 200 / 1024).toFixed(1),
      'kept size per entry, estimated (KiB)': (store.journalBytes === undefined ? NaN : (store.journalBytes - keptBefore) / 200 / 1024).toFixed(1),
      'requestBody kept as': typeof kept.requestBody,
    });
    await harness.stop();
  }
  console.table(rows);
}

async function serve() {
  const server = createStandaloneServer({ scenarios, port: 0, logger: { warn() {}, error() {}, info() {} } });
  await server.listen();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const send = (testId) =>
    new Promise((resolve, reject) => {
      const req = http.request(`${server.url}/https/api.bench.test/upload`, { method: 'POST', agent, headers: { ...HEADERS, 'x-harness-test-id': testId } }, (res) => res.resume().on('end', resolve));
      req.on('error', reject);
      req.end(NESTED);
    });
  await send('warm');
  const before = heap();
  const rssBefore = process.memoryUsage().rss;
  for (let n = 0; n < 2000; n += 4) await Promise.all([0, 1, 2, 3].map((k) => send(`t-${(n + k) % 20}`)));
  const after = heap();
  console.log(`2,000 calls of 8 KB \`[[],…]\` to serve: heap +${((after - before) / MiB).toFixed(1)} MiB, RSS +${((process.memoryUsage().rss - rssBefore) / MiB).toFixed(1)} MiB`);
  agent.destroy();
  await server.close();
}

/** 300 MiB in 64 KiB chunks, made as they are read. */
function* chunks() {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  for (let i = 0; i < (300 * MiB) / chunk.length; i++) yield chunk;
}

/** Write 300 MiB with node:http(s) as fast as the connection takes it; resolves with the status. */
function post(url, headers) {
  return new Promise((resolve, reject) => {
    const client = url.startsWith('https:') ? https : http;
    const req = client.request(url, { method: 'POST', headers }, (res) => res.resume().on('end', () => resolve(res.statusCode)));
    req.on('error', reject);
    const source = chunks();
    const write = () => {
      for (let next = source.next(); !next.done; next = source.next()) if (!req.write(next.value)) return void req.once('drain', write);
      req.end();
    };
    write();
  });
}

/** The same upload through fetch with a stream body (always chunked). */
async function fetchUpload(url) {
  const source = chunks();
  const body = new ReadableStream({
    pull(controller) {
      const next = source.next();
      if (next.done) controller.close();
      else controller.enqueue(new Uint8Array(next.value));
    },
  });
  const response = await fetch(url, { method: 'POST', body, duplex: 'half' });
  await response.arrayBuffer();
  return response.status;
}

async function upload(where, framing) {
  const headers = framing === 'length' ? { 'content-length': String(300 * MiB) } : {};
  const startRss = process.memoryUsage().rss;
  let status;
  if (where === 'serve') {
    const server = createStandaloneServer({ scenarios, port: 0, logger: { warn() {}, error() {}, info() {} } });
    await server.listen();
    status = await post(`${server.url}/https/api.bench.test/upload`, headers);
    await server.close();
  } else {
    const harness = createHarness({ enabled: true, scenarios, announce: false });
    await harness.start();
    status = where === 'fetch' ? await fetchUpload(`${API}/upload`) : await post(`${API}/upload`, headers);
    await harness.stop();
  }
  const peak = process.resourceUsage().maxRSS / 1024;
  console.log(`300 MiB ${framing} upload, ${where === 'serve' ? 'to serve' : `embedded (${where})`}: status ${status}, RSS at start ${(startRss / MiB).toFixed(0)} MB, peak ${peak.toFixed(0)} MB`);
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === undefined) {
  const self = fileURLToPath(import.meta.url);
  const runs = [['entry'], ['serve'], ['upload', 'fetch', 'chunked'], ['upload', 'node:http', 'chunked'], ['upload', 'node:http', 'length'], ['upload', 'serve', 'chunked'], ['upload', 'serve', 'length']];
  for (const args of runs) spawnSync(process.execPath, ['--expose-gc', self, ...args], { stdio: 'inherit' });
} else if (typeof globalThis.gc !== 'function') {
  console.error('Run with node --expose-gc: the heap figures need a full garbage collection before each reading.');
  process.exit(1);
} else if (mode === 'entry') await entry();
else if (mode === 'serve') await serve();
else await upload(rest[0] ?? 'fetch', rest[1] ?? 'chunked');

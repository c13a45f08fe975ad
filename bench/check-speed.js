// How long `scenario-harness check` takes over 1,000 mocks (issue 27, item 5: under 5 s), measured as
// a user meets it: the built CLI in its own process, start-up and document parsing included.
//
//   npm run build && node bench/check-speed.js
//
// The 1,000 mocks are spread over the three documents the import tests bundle (Petstore, Swagger 2;
// payments, OpenAPI 3.0; Museum, OpenAPI 3.1), in 10 scenario files of 100: JSON bodies with
// nested objects and arrays, templates, `match` on query and body, sequences, one mock in ten
// drifted (so the problem report is exercised too) and one in twenty under no document's servers.
// Three runs; the median is the figure.
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const FIXTURES = join(ROOT, 'test/import/fixtures');
const DOCUMENTS = ['petstore-swagger2.json', 'payments-openapi30.yaml', 'museum-openapi31.yaml'].map((name) => join(FIXTURES, name));
const MOCKS = 1000;
const FILES = 10;
const LIMIT_MS = 5000;

/** The i-th mock: a good one of one of six kinds, or (every tenth) a drifted one, or (every twentieth + 1) one for another API. */
function mock(i) {
  const drift = i % 10 === 4;
  if (i % 20 === 1) return { id: `other${i}`, url: `https://api.other.test/things/${i}`, response: { body: { i } } };
  switch (i % 6) {
    case 0:
      return { id: `pet${i}`, method: 'GET', url: `https://petstore.swagger.io/v2/pet/${i}`, response: { body: { id: i, name: `pet ${i}`, category: { id: drift ? 'x' : 1, name: 'Dogs' }, photoUrls: [], tags: [{ id: 1, name: 't' }], status: 'available' } } };
    case 1:
      return { id: `find${i}`, method: 'GET', url: 'https://petstore.swagger.io/v2/pet/findByStatus', match: { query: { status: 'sold' } }, response: { body: Array.from({ length: 5 }, (_, n) => ({ id: n, name: `p${n}`, photoUrls: ['u'] })) } };
    case 2:
      return { id: `charge${i}`, method: 'POST', url: 'https://api.payments.test/v1/charges', match: { body: { amount: i, currency: 'usd' } }, response: { body: { id: `ch_${i}`, object: 'charge', amount: drift ? String(i) : '{{body.amount}}', currency: 'usd', paid: true, status: 'succeeded' } } };
    case 3:
      return { id: `list${i}`, method: 'GET', url: 'https://api.payments.test/v1/charges', match: { query: { limit: '10' } }, sequence: { responses: [{ body: { object: 'list', has_more: true, data: [{ id: 'ch_1', amount: 1 }] } }, { body: { object: 'list', has_more: false, data: [] } }] } };
    case 4:
      return { id: `hours${i}`, method: 'GET', url: 'https://api.fake-museum-example.com/v1/museum-hours', response: { body: Array.from({ length: 7 }, (_, d) => ({ date: `2024-01-0${d + 1}`, timeOpen: '09:00', timeClose: drift ? '6pm' : '18:00' })) } };
    default:
      return { id: `ticket${i}`, method: 'POST', url: 'https://api.fake-museum-example.com/v1/tickets', match: { body: { ticketType: 'general' } }, response: { status: 201, body: { message: 'ok', ticketId: 'b811f723-17b2-44f7-8952-24b03e43d8a9', ticketType: 'general', ticketDate: '2024-01-01', confirmationCode: `c${i}` } } };
  }
}

const dir = mkdtempSync(join(tmpdir(), 'check-speed-'));
const files = Array.from({ length: FILES }, (_, f) => {
  const path = join(dir, `scenarios-${f}.json`);
  const mocks = Array.from({ length: MOCKS / FILES }, (_, n) => mock(f * (MOCKS / FILES) + n));
  writeFileSync(path, JSON.stringify({ [`s${f}`]: { name: `Scenario ${f}`, mocks } }));
  return path;
});
const args = [join(ROOT, 'bin/scenario-harness.js'), 'check', ...DOCUMENTS.flatMap((doc) => ['--openapi', doc]), ...files, '--json'];

const runs = [];
let report;
for (let run = 0; run < 3; run++) {
  const started = performance.now();
  const child = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  runs.push(performance.now() - started);
  if (child.status !== 1) throw new Error(`expected exit 1 (the drifted mocks), got ${child.status}: ${child.stderr}`);
  report = JSON.parse(child.stdout);
}
const median = [...runs].sort((a, b) => a - b)[1];
console.log(`check over ${report.mocks} mocks in ${FILES} files against 3 documents: ${report.checked} checked, ${report.unchecked.length} not checked, ${report.problems.length} problems`);
console.log(`wall-clock per run (process start to exit): ${runs.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')}; median ${(median / 1000).toFixed(2)} s (limit ${LIMIT_MS / 1000} s) on Node ${process.versions.node}`);
if (median >= LIMIT_MS) process.exitCode = 1;

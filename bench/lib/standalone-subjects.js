// The subjects of the standalone-server benchmark, started and measured one at a time:
// `scenario-harness serve` (the real CLI, from dist/), the node:http floors, and WireMock
// (when bench/standalone-wiremock.js has a jar for it).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild, stopChild } from './proc.js';
import { answersByTestId, buildStandaloneWorkload, measure, pool, scenarioFile } from './standalone-load.js';
import { HARNESS_HEADER } from './workloads.js';

const benchDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const rootDir = path.dirname(benchDir);
const START_TIMEOUT_MS = 60_000;

export const LABELS = { standalone: 'scenario-harness serve', echo: 'floor: node:http echo', proxy: 'floor: node:http proxy → echo', wiremock: 'WireMock (standalone jar)' };

/**
 * Spawn a server process and resolve with its port once its output matches `ready`
 * (a RegExp whose first group is the port).
 */
function spawnServer(command, args, ready, what) {
  const child = spawn(command, args, { env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.exited = new Promise((resolve) => child.once('exit', resolve));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${what} did not start within ${START_TIMEOUT_MS} ms\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = (d) => {
      output += d;
      const port = ready.exec(output)?.[1];
      if (port === undefined) return;
      clearTimeout(timer);
      child.stdout.removeAllListeners('data').resume();
      child.stderr.removeAllListeners('data').resume();
      resolve({ child, base: `http://127.0.0.1:${port}` });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before listening\n${output}`));
    });
  });
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  if (!child.exited) return stopChild(child);
  child.kill('SIGTERM');
  await child.exited;
}

async function switchAll(base, switches) {
  await pool(switches, 16, async ({ testId, scenarioId }) => {
    const r = await fetch(`${base}/__scenario__`, { method: 'POST', headers: { 'content-type': 'application/json', [HARNESS_HEADER]: testId }, body: JSON.stringify({ scenario: scenarioId }) });
    if (r.status !== 200) throw new Error(`switch ${testId} -> ${scenarioId} answered ${r.status} ${await r.text()}`);
  });
}

/** WireMock has no test IDs: each test ID gets a stub matching its header, the way a WireMock user would isolate tests. */
async function loadWireMockStubs(base, spec) {
  const mappings = [...answersByTestId(spec)].map(([testId, { path: urlPath, body }]) => ({
    request: { method: 'GET', urlPath, headers: { [HARNESS_HEADER]: { equalTo: testId } } },
    response: { status: 200, body, headers: { 'content-type': 'application/json' } },
  }));
  const r = await fetch(`${base}/__admin/mappings/import`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mappings }) });
  if (!r.ok) throw new Error(`WireMock refused the stubs: ${r.status} ${await r.text()}`);
}

/** Start `subject`, load the workload into it, measure, stop. `wiremockJar` is needed for WireMock only. */
export async function measureSubject(subject, workload, { wiremockJar } = {}) {
  const spec = buildStandaloneWorkload(workload);
  const started = [];
  try {
    let base;
    // Every subject but WireMock is asked with the upstream in the path, as services call the
    // standalone server; WireMock serves its stubs at its root (like a port per upstream).
    let pathOf = (v) => `/https/api.bench.test${v.path}`;
    if (subject === 'standalone') {
      const dir = path.join(benchDir, 'results', 'standalone');
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${spec.name}.json`);
      fs.writeFileSync(file, JSON.stringify(scenarioFile(spec)));
      const serve = await spawnServer(process.execPath, [path.join(rootDir, 'bin', 'scenario-harness.js'), 'serve', '--port', '0', '--unhandled', 'error', file], /at http:\/\/127\.0\.0\.1:(\d+)[^]*Press Ctrl\+C/, 'scenario-harness serve');
      started.push(serve.child);
      base = serve.base;
      await switchAll(base, spec.switches);
    } else if (subject === 'wiremock') {
      // Its own root directory: WireMock creates mappings/ and __files/ there.
      const root = path.join(path.dirname(wiremockJar), 'root');
      fs.mkdirSync(root, { recursive: true });
      const args = ['-jar', wiremockJar, '--port', '0', '--root-dir', root, '--disable-banner', '--no-request-journal', '--disable-request-logging'];
      const wiremock = await spawnServer('java', args, /port:\s+(\d+)/, 'WireMock');
      started.push(wiremock.child);
      base = wiremock.base;
      await loadWireMockStubs(base, spec);
      pathOf = (v) => v.path;
    } else {
      const echo = await startChild('standalone-floor.js', ['echo', workload]);
      started.push(echo.child);
      base = `http://127.0.0.1:${echo.msg.port}`;
      if (subject === 'proxy') {
        const proxy = await startChild('standalone-floor.js', ['proxy', workload, String(echo.msg.port)]);
        started.push(proxy.child);
        base = `http://127.0.0.1:${proxy.msg.port}`;
      }
    }
    return await measure({ base, spec, pathOf, pids: started.map((child) => child.pid) });
  } catch (err) {
    return { valid: false, error: String(err && err.message ? err.message : err) };
  } finally {
    for (const child of started.reverse()) await stop(child);
  }
}

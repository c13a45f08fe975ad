// WireMock beside the standalone server, measured the same way (bench/lib/standalone-load.js):
// the same two workloads, the same load generator and checks, in the same run.
//
//   npm run build && node bench/standalone-wiremock.js
//
// Needs Java 11+ (`java` on the PATH; Debian: apt-get install -y default-jre-headless). WireMock
// itself is fetched on demand, not a dependency: the npm package `wiremock` ships the standalone
// jar, which `npm pack` downloads into bench/results/wiremock/ (git ignores it) on the first run.
//
// WireMock has no per-test isolation, so each test ID gets its own stub matching its
// x-harness-test-id header: S1 is one stub, S1000 is 1,000 stubs on the same URL, the way a
// WireMock user isolates parallel tests. WireMock runs with --no-request-journal and
// --disable-request-logging (its fastest settings), and the JVM gets a longer warm-up for its JIT.
//
// Environment: as bench/standalone.js, plus BENCH_WIREMOCK_VERSION (default 3.13.2) and
// BENCH_WARMUP (default 5 s here); BENCH_OUT defaults to bench/results/standalone-wiremock.json.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

process.env.BENCH_WARMUP ??= '5';
const { CFG, describeResult, log, measureAll, resultTable, WORKLOADS } = await import('./lib/standalone-load.js');
const { LABELS, measureSubject } = await import('./lib/standalone-subjects.js');

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const rootDir = path.dirname(benchDir);
const VERSION = process.env.BENCH_WIREMOCK_VERSION || '3.13.2';
const OUT = process.env.BENCH_OUT || path.join(benchDir, 'results', 'standalone-wiremock.json');

function javaVersion() {
  const run = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (run.error) throw new Error('WireMock needs Java, and `java` is not on the PATH. Install a JRE (Debian: apt-get install -y default-jre-headless) and run this again.');
  return run.stderr.split('\n')[0];
}

/** The standalone jar of WireMock, from the npm package `wiremock` (downloaded once with npm pack). */
function wiremockJar() {
  const dir = path.join(benchDir, 'results', 'wiremock');
  const jar = path.join(dir, `wiremock-standalone-${VERSION}.jar`);
  if (fs.existsSync(jar)) return jar;
  fs.mkdirSync(dir, { recursive: true });
  log(`fetching wiremock@${VERSION} (npm pack, about 18 MB) into ${path.relative(rootDir, dir)}/ …`);
  const [{ filename }] = JSON.parse(execFileSync('npm', ['pack', `wiremock@${VERSION}`, '--pack-destination', dir, '--json'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
  execFileSync('tar', ['-xzf', path.join(dir, filename), '-C', dir, '--strip-components=2', `package/build/wiremock-standalone-${VERSION}.jar`]);
  fs.rmSync(path.join(dir, filename));
  if (!fs.existsSync(jar)) throw new Error(`wiremock@${VERSION} did not contain build/wiremock-standalone-${VERSION}.jar`);
  return jar;
}

async function main() {
  const started = Date.now();
  const java = javaVersion();
  const jar = wiremockJar();
  if (!fs.existsSync(path.join(rootDir, 'dist', 'cli', 'main.js'))) throw new Error('dist/cli/main.js is missing: run `npm run build` first.');
  log(`WireMock ${VERSION} on ${java}`);
  const results = await measureAll(Object.keys(WORKLOADS), ['standalone', 'wiremock'], (subject, workload) => measureSubject(subject, workload, { wiremockJar: jar }), (workload, subject, r, note) =>
    log(`${workload.padEnd(6)} ${LABELS[subject].padEnd(30)} ${describeResult(r)}${note}`),
  );
  console.log('');
  console.log(`scenario-harness serve beside WireMock ${VERSION} (${java}); ${CFG.connections} connections, ${CFG.duration} s after ${CFG.warmup} s warm-up; every response checked`);
  console.log(resultTable(results, { standalone: LABELS.standalone, wiremock: LABELS.wiremock }));
  const runtimeS = Math.round((Date.now() - started) / 100) / 10;
  console.log(`total runtime ${runtimeS} s`);
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, `${JSON.stringify({ config: CFG, env: { node: process.version, java, wiremock: VERSION, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model?.trim(), runtimeS }, results }, null, 2)}\n`);
  console.log(`saved ${path.relative(process.cwd(), OUT) || OUT}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

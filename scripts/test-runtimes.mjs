#!/usr/bin/env node
// The suites again on every other supported Node line (test-runtimes.json), after `npm test` has
// run them on the Node first on PATH (the primary line, 24, in CI: .ci/run): the whole vitest
// suite on each, and the browser suite (the
// shop and both Next.js majors; its Bun and Deno projects only in npm test, since the apps there
// run on those runtimes whatever the Node line) on the lines named by --browser. Each Node binary comes from the
// npm registry (scripts/ensure-node.mjs) and is first on PATH, so every `node` a test starts is
// that line too. Bun and Deno are installed first (scripts/ensure-runtimes.mjs): test/runtimes
// drives them from every Node line. Run by .ci/run; `npm run build` must have run (npm test does it).
//
//   node scripts/test-runtimes.mjs                      every line in test-runtimes.json but the one running this script
//   node scripts/test-runtimes.mjs 26.10.0              one line
//   node scripts/test-runtimes.mjs --browser 24,26      the browser suite on Node 24.x and 26.x too
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNode, supportedNodeVersions } from './ensure-node.mjs';
import { ensureRuntime } from './ensure-runtimes.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const browserAt = args.indexOf('--browser');
const browserMajors = browserAt === -1 ? [] : args.splice(browserAt, 2)[1].split(',');
// The line running this script has had npm test (the same suites and more) already.
const versions = args.length > 0 ? args : supportedNodeVersions().filter((version) => version !== process.versions.node);

/** Run `script` with Node `binary`, that Node first on PATH; the exit code and the seconds it took. */
function runOn(binary, script, scriptArgs, env = {}) {
  const started = Date.now();
  const { status, error } = spawnSync(binary, [script, ...scriptArgs], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${dirname(binary)}:${process.env.PATH}`, ...env },
  });
  if (error) throw error;
  return { status, seconds: Math.round((Date.now() - started) / 1000) };
}

/**
 * The failed tests of one vitest run, from its JSON report: a line for each, with the first lines
 * of its error. Printed again at the very end, because CI logs keep only their tail and a failure
 * on one line would otherwise be buried under the runs after it.
 */
function failuresIn(reportPath) {
  if (!existsSync(reportPath)) return ['  (no JSON report: vitest did not finish)'];
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  const lines = [];
  for (const file of report.testResults ?? []) {
    const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    if (failed.length === 0 && file.status === 'failed') lines.push(`  ${relative(root, file.name)}: ${firstLines(file.message)}`);
    for (const test of failed) lines.push(`  ${relative(root, file.name)} › ${test.fullName}: ${firstLines(test.failureMessages?.[0])}`);
  }
  return lines;
}

/** The first three lines of an error message, indented under its test. */
function firstLines(message = '') {
  // vitest's JSON report loses a timeout's message and keeps only the placeholder of its stack.
  if (message.startsWith('Error: STACK_TRACE_ERROR')) return 'timed out (the test or hook took longer than its timeout; vitest\'s JSON report keeps no other message)';
  return message.split('\n').filter(Boolean).slice(0, 3).join('\n      ');
}

for (const runtime of ['bun', 'deno']) ensureRuntime(runtime);

const reports = mkdtempSync(join(tmpdir(), 'scenario-harness-runtimes-'));
const results = [];
for (const version of versions) {
  const binary = ensureNode(version);
  console.log(`\n=== Node ${version}: vitest run (every suite) ===\n`);
  const report = join(reports, `vitest-${version}.json`);
  const vitestArgs = ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  const run = runOn(binary, 'node_modules/vitest/vitest.mjs', vitestArgs);
  results.push({ what: `Node ${version}: vitest`, ...run, failures: run.status === 0 ? [] : failuresIn(report) });
  if (browserMajors.includes(version.split('.')[0])) {
    console.log(`\n=== Node ${version}: browser suite ===\n`);
    results.push({ what: `Node ${version}: browser suite`, ...runOn(binary, 'scripts/test-browser.js', [], { BROWSER_TEST_RUNTIMES: '0' }) });
  }
}

console.log('\n=== Other Node lines ===');
for (const { what, status, seconds, failures = [] } of results) {
  console.log(`${status === 0 ? 'passed' : 'FAILED'}  ${what} (${seconds} s)`);
  for (const line of failures) console.log(line);
}
process.exit(results.every((result) => result.status === 0) ? 0 : 1);

#!/usr/bin/env node
// The suites again on every other supported Node line (test-runtimes.json), after `npm test` has
// run them on this machine's Node: the whole vitest suite on each, and the browser suite (the
// shop and both Next.js majors) on the lines named by --browser. Each Node binary comes from the
// npm registry (scripts/ensure-node.mjs) and is first on PATH, so every `node` a test starts is
// that line too. Run by .ci/run; `npm run build` must have run (npm test does it).
//
//   node scripts/test-runtimes.mjs                      every line in test-runtimes.json
//   node scripts/test-runtimes.mjs 26.10.0              one line
//   node scripts/test-runtimes.mjs --browser 24,26      the browser suite on Node 24.x and 26.x too
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNode, supportedNodeVersions } from './ensure-node.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const browserAt = args.indexOf('--browser');
const browserMajors = browserAt === -1 ? [] : args.splice(browserAt, 2)[1].split(',');
const versions = args.length > 0 ? args : supportedNodeVersions();

/** Run `script` with Node `binary`, that Node first on PATH; the exit code and the seconds it took. */
function runOn(binary, script, scriptArgs) {
  const started = Date.now();
  const { status, error } = spawnSync(binary, [script, ...scriptArgs], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${dirname(binary)}:${process.env.PATH}` },
  });
  if (error) throw error;
  return { status, seconds: Math.round((Date.now() - started) / 1000) };
}

const results = [];
for (const version of versions) {
  const binary = ensureNode(version);
  console.log(`\n=== Node ${version}: vitest run (every suite) ===\n`);
  results.push({ what: `Node ${version}: vitest`, ...runOn(binary, 'node_modules/vitest/vitest.mjs', ['run']) });
  if (browserMajors.includes(version.split('.')[0])) {
    console.log(`\n=== Node ${version}: browser suite ===\n`);
    results.push({ what: `Node ${version}: browser suite`, ...runOn(binary, 'scripts/test-browser.js', []) });
  }
}

console.log('\n=== Other Node lines ===');
for (const { what, status, seconds } of results) console.log(`${status === 0 ? 'passed' : 'FAILED'}  ${what} (${seconds} s)`);
process.exit(results.every((result) => result.status === 0) ? 0 : 1);

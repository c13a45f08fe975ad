/**
 * The browser suite's Next.js apps: examples/next-app built (once per major, shared with the
 * vitest Next.js tests through the same keyed build) and served by `next start` with the harness
 * on. NEXT_TARGET picks the major (`current`, the default, or `previous`: test-runtimes.json).
 * Playwright starts this as a webServer and stops it after the run.
 */
import { spawn } from 'node:child_process';
import { CURRENT_NEXT, ensureNextBuild, nextEnv, PREVIOUS_NEXT } from '../../adapters/fixtures/next-build.js';

const port = process.env.PORT ?? '4320';
const target = process.env.NEXT_TARGET === 'previous' ? PREVIOUS_NEXT : CURRENT_NEXT;
await ensureNextBuild(target);
const server = spawn(process.execPath, [target.bin, 'start', '--port', port, '--hostname', '127.0.0.1'], {
  cwd: target.dir,
  env: nextEnv({ HARNESS_ENABLED: 'true' }),
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));

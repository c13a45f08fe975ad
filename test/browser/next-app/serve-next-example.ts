/**
 * The browser suite's second app: examples/next-app built (once, shared with the vitest
 * Next.js tests through the same keyed build) and served by `next start` with the harness on.
 * Playwright starts this as a webServer and stops it after the run.
 */
import { spawn } from 'node:child_process';
import { ensureNextBuild, NEXT_APP_DIR, NEXT_BIN, nextEnv } from '../../adapters/fixtures/next-build.js';

const port = process.env.PORT ?? '4320';
await ensureNextBuild();
const server = spawn(process.execPath, [NEXT_BIN, 'start', '--port', port, '--hostname', '127.0.0.1'], {
  cwd: NEXT_APP_DIR,
  env: nextEnv({ HARNESS_ENABLED: 'true' }),
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { NextTarget } from '../adapters/fixtures/next-build.js';
import { startServerGroup, type ServerGroup } from '../support/start-server-group.js';
import { cleanEnv } from './start-registered-app.js';

const BUILT_REGISTER = fileURLToPath(new URL('../../dist/register/index.js', import.meta.url));

/** A Next.js server under register: its process group (next dev forks its server and workers). */
export type RegisteredNext = ServerGroup;

/**
 * `next start` or `next dev` the app in `dir` on a free loopback port with the harness attached
 * through the environment only: `NODE_OPTIONS=--import=scenario-harness/register`, which every
 * Node process Next starts inherits, and `env` (the `HARNESS_*` settings). Resolves once Next
 * printed its address and "Ready". `scenario-harness/register` resolves from `dir` as it would in
 * an app that installed the package: in the repository by the package's self-reference, in the
 * previous major's folder from its node_modules.
 */
export async function startNextWithRegister(target: NextTarget, mode: 'start' | 'dev', dir: string, env: Record<string, string>): Promise<RegisteredNext> {
  if (!existsSync(BUILT_REGISTER)) {
    throw new Error(`${BUILT_REGISTER} is missing: run \`npm run build\` first (npm test builds before vitest). Next.js loads scenario-harness/register from the built package.`);
  }
  return startServerGroup({
    args: [target.bin, mode, '--hostname', '127.0.0.1', '--port', '0'],
    cwd: dir,
    // NODE_ENV out: vitest sets `test`, and Next chooses its own per command.
    env: cleanEnv({ NODE_ENV: undefined, NEXT_TELEMETRY_DISABLED: '1', NODE_OPTIONS: '--import=scenario-harness/register', ...env }),
    readyAt: (output) => (/Ready in/.test(output) ? /Local:\s+(http:\/\/[^\s/]+)/.exec(output)?.[1] : undefined),
    what: `next ${mode}`,
  });
}

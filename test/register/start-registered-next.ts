import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { NextTarget } from '../adapters/fixtures/next-build.js';
import { cleanEnv } from './start-registered-app.js';

const BUILT_REGISTER = fileURLToPath(new URL('../../dist/register/index.js', import.meta.url));

export interface RegisteredNext {
  /** `http://127.0.0.1:<port>`, as Next printed it. */
  origin: string;
  url(path: string): string;
  /** What the processes of the tree printed so far, stdout and stderr as they came: register's start-up lines (stdout), the harness's errors (stderr), Next's own. */
  output(): string;
  /** Ends the whole process group: `next dev` forks its server and workers. */
  close(): Promise<void>;
}

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
  const child = spawn(process.execPath, [target.bin, mode, '--hostname', '127.0.0.1', '--port', '0'], {
    cwd: dir,
    // NODE_ENV out: vitest sets `test`, and Next chooses its own per command.
    env: cleanEnv({ NODE_ENV: undefined, NEXT_TELEMETRY_DISABLED: '1', NODE_OPTIONS: '--import=scenario-harness/register', ...env }),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  };
  process.once('exit', killGroup);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  let ready = false;
  return await new Promise<RegisteredNext>((resolve, reject) => {
    const onOutput = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready) return;
      const origin = /Local:\s+(http:\/\/[^\s/]+)/.exec(output)?.[1];
      if (origin === undefined || !/Ready in/.test(output)) return;
      ready = true;
      resolve({
        origin,
        url: (path) => `${origin}${path}`,
        output: () => output,
        close: async () => {
          process.off('exit', killGroup);
          killGroup();
          await exited;
        },
      });
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    child.once('error', reject);
    void exited.then(() => reject(new Error(`next ${mode} exited with code ${child.exitCode} before it was ready:\n${output}`)));
  });
}

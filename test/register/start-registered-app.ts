import { spawn, type ChildProcessByStdio, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { FixtureOptions, RunningApp, StartFixture } from '../conformance/fixture.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const PLAIN_APP = fileURLToPath(new URL('./plain-app.ts', import.meta.url));
export const CONFORMANCE_SCENARIOS = fileURLToPath(new URL('./conformance-scenarios.ts', import.meta.url));

/** This process's environment without any HARNESS_* variable of the runner's own. */
export function cleanEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('HARNESS_')));
  return { ...env, ...extra };
}

export interface ChildApp extends RunningApp {
  /** What the app printed on stderr so far (register's lines among them). */
  stderr(): string;
}

/**
 * Start `script` as an unmodified app, with `--import scenario-harness/register` (and tsx first,
 * so the app and a `.ts` scenario module load; `preload` before both), once it prints
 * `listening <port>`.
 */
export function startWithRegister(script: string, env: NodeJS.ProcessEnv, preload: string[] = []): Promise<ChildApp> {
  const imports = [...preload, 'tsx', 'scenario-harness/register'].flatMap((module) => ['--import', module]);
  const child = spawn(process.execPath, [...imports, script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const port = /listening (\d+)/.exec(stdout)?.[1];
      if (port === undefined) return;
      resolve({
        url: (path) => `http://127.0.0.1:${port}${path}`,
        stderr: () => stderr,
        close: async () => {
          child.kill();
          await exited;
        },
      });
    });
    child.once('error', reject);
    void exited.then((code) => reject(new Error(`the app exited with code ${code} before it listened:\n${stderr}${stdout}`)));
  });
}

/** What a process printed, and its exit code, once it has exited. */
export interface ExitedProcess {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Wait for `child` (spawned with piped stdout and stderr) to exit, keeping all it printed. */
export function waitForExit(child: ChildProcessWithoutNullStreams | ChildProcessByStdio<null, Readable, Readable>): Promise<ExitedProcess> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Run `script` with register and wait for it to exit: its exit code and what it printed. */
export function runWithRegister(script: string, env: NodeJS.ProcessEnv): Promise<ExitedProcess> {
  return waitForExit(spawn(process.execPath, ['--import', 'tsx', '--import', 'scenario-harness/register', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] }));
}

export function startRegisteredApp(framework: 'express' | 'fastify' | 'koa' | 'node'): StartFixture {
  return ({ enabled, upstream, access, control }: FixtureOptions) => {
    if (access?.authorize !== undefined) throw new Error('register takes access: { token } only (HARNESS_TOKEN).');
    return startWithRegister(
      PLAIN_APP,
      cleanEnv({
        FRAMEWORK: framework,
        UPSTREAM_ORIGIN: upstream,
        HARNESS_SCENARIOS: CONFORMANCE_SCENARIOS,
        HARNESS_UNHANDLED: 'error',
        ...(enabled ? { HARNESS_ENABLED: 'true' } : {}),
        ...(access?.token === undefined ? {} : { HARNESS_TOKEN: access.token }),
        ...(control?.allowedHosts === undefined ? {} : { HARNESS_ALLOWED_HOSTS: control.allowedHosts === '*' ? '*' : control.allowedHosts.map(String).join(',') }),
        ...(control?.allowCrossSite === undefined ? {} : { HARNESS_ALLOW_CROSS_SITE: String(control.allowCrossSite) }),
      }),
    );
  };
}

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pinnedVersion, runtimeBinary, type RuntimeName } from '../../scripts/ensure-runtimes.mjs';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const START_TIMEOUT_MS = 30_000;

/** The fixture app running on Bun or Deno, as the test reaches it. */
export interface RuntimeApp {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Everything the app wrote so far (stdout and stderr): its start-up line, the harness's log lines. */
  output(): string;
  /** Resolves once the app has written `text` (its log lines reach us on their own pipe, after the HTTP answer may have). */
  waitForOutput(text: string): Promise<void>;
  stop(): Promise<void>;
}

/** The pinned runtime's binary, or `undefined` when it is not installed on this machine. */
export function installedRuntime(runtime: RuntimeName): { binary: string; version: string } | undefined {
  const binary = runtimeBinary(runtime);
  return existsSync(binary) ? { binary, version: pinnedVersion(runtime) } : undefined;
}

/** How each runtime runs the fixture app (plain JavaScript, importing the package by its published names). */
function commandLine(runtime: RuntimeName, app: string): string[] {
  // Bun follows tsconfig.json paths to src/; the override has none, so the build is loaded as a user's app loads the package.
  if (runtime === 'bun') return ['--tsconfig-override=bun-tsconfig.json', app];
  // --no-lock: no deno.lock written into the repository. --sloppy-imports: the conformance apps
  // import the Node suites' TypeScript fixtures, which name each other `./x.js` as NodeNext wants;
  // Deno finds `./x.ts` behind such a name only with it (Bun always does). It changes nothing for
  // the package itself, which is reached through its exports map by its published names.
  return ['run', '--allow-all', '--no-lock', '--sloppy-imports', app];
}

export interface StartRuntimeAppOptions {
  /** The app: a file in fixtures/.
   * @default 'hono-app.js' */
  app?: string;
  /** More environment for the app, on top of this process's (the conformance apps read their options from it). */
  env?: Record<string, string>;
}

/** Start an app on `binary`; resolves once it prints `listening <port>`. */
export function startRuntimeApp(runtime: RuntimeName, binary: string, { app = 'hono-app.js', env = {} }: StartRuntimeAppOptions = {}): Promise<RuntimeApp> {
  const child: ChildProcess = spawn(binary, commandLine(runtime, app), {
    cwd: FIXTURES,
    // No colour codes in the output the test reads; Deno's update check would reach for the internet.
    env: { ...process.env, ...env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const waiting = new Set<{ text: string; resolve: () => void }>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const waiter of waiting) {
      if (!output.includes(waiter.text)) continue;
      waiting.delete(waiter);
      waiter.resolve();
    }
  };
  const waitForOutput = (text: string) =>
    output.includes(text) ? Promise.resolve() : new Promise<void>((resolve) => waiting.add({ text, resolve }));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  let started = false;
  return new Promise((resolve, reject) => {
    const fail = (reason: string) => {
      if (started) return;
      clearTimeout(deadline);
      child.kill('SIGKILL');
      reject(new Error(`The ${runtime} fixture app (test/runtimes/fixtures/${app}) did not start: ${reason}. Its output:\n${output}`));
    };
    const deadline = setTimeout(() => fail(`no "listening <port>" line within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code, signal) => fail(`it exited (${code ?? signal})`));
    child.stderr!.on('data', collect);
    child.stdout!.on('data', (chunk: Buffer) => {
      collect(chunk);
      const port = /^listening (\d+)$/m.exec(output)?.[1];
      if (port === undefined || started) return;
      started = true;
      clearTimeout(deadline);
      resolve({ origin: `http://127.0.0.1:${port}`, output: () => output, waitForOutput, stop });
    });
  });
}

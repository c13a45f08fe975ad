import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The CLI on the sources, as the package's bin runs it on the build (see test/cli/bin.ts). */
export const CLI = fileURLToPath(new URL('../cli/bin.ts', import.meta.url));
/** tsx's loader by absolute URL, so the CLI also runs from a directory outside the repository. */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const START_TIMEOUT_MS = 30_000;

/** A running `scenario-harness serve` child process. */
export interface ServeProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>`, from the start-up line. */
  url: string;
  /** Upstream origin → the address serving it, from the start-up lines. */
  upstreams: Record<string, string>;
  /** Everything written so far, stdout and stderr interleaved as they arrived. */
  output(): string;
  /** Resolves with the output once `pattern` matches what was written after `since` (an `output().length`). */
  waitForOutput(pattern: RegExp, since?: number): Promise<string>;
  /** Send `signal` and resolve with how the process ended. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Run `scenario-harness <args>` to completion. */
export function runCli(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', TSX, CLI, ...args], { cwd: options.cwd, env: { ...process.env, NO_COLOR: '1', ...options.env } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
    });
  });
}

/** Start `scenario-harness serve --port 0 <args>`; resolves once it prints "Press Ctrl+C to stop.". */
export function startServe(args: string[], options: { env?: Record<string, string> } = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['--import', TSX, CLI, 'serve', '--port', '0', ...args], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const waiters = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    for (const waiter of waiters) waiter();
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  const waitForOutput = (pattern: RegExp, since = 0) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (pattern.test(output.slice(since))) {
          waiters.delete(check);
          resolve(output);
        }
      };
      waiters.add(check);
      void exited.then(({ code, signal }) => {
        if (waiters.delete(check)) reject(new Error(`serve exited (${code ?? signal}) before printing ${pattern}:\n${output}`));
      });
      check();
    });

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start within ${START_TIMEOUT_MS} ms:\n${output}`));
    }, START_TIMEOUT_MS);
    waitForOutput(/Press Ctrl\+C to stop\./).then(
      () => {
        clearTimeout(timer);
        const url = /at (http:\/\/[^\s]+) \(unhandled/.exec(output)![1]!;
        const upstreams = Object.fromEntries([...output.matchAll(/ {2}(https?:\/\/\S+) → (http:\/\/\S+)/g)].map((m) => [m[1]!, m[2]!]));
        resolve({
          child,
          url,
          upstreams,
          output: () => output,
          waitForOutput,
          exited,
          async stop(signal = 'SIGTERM') {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            return exited;
          },
        });
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error as Error);
      },
    );
  });
}

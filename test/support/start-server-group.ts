import { spawn } from 'node:child_process';

/** A server a test started, in a process group of its own (framework CLIs fork). */
export interface ServerGroup {
  origin: string;
  url(path: string): string;
  /** Everything it printed so far, stdout and stderr together, without ANSI colours. */
  output(): string;
  /** Kill the whole group and wait for the first process to exit. */
  close(): Promise<void>;
}

export interface ServerGroupOptions {
  /** Node's arguments: the CLI or script, then its own. */
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The server's origin once its output (without ANSI colours) says it serves, else `undefined`. */
  readyAt(output: string): string | undefined;
  /** What it is, for the error when it exits before it serves. */
  what: string;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * Start `node ...args` as the leader of a new process group, resolving once `readyAt` finds the
 * origin in its output; the group is killed on `close()`, or when this process exits.
 */
export function startServerGroup({ args, cwd, env, readyAt, what }: ServerGroupOptions): Promise<ServerGroup> {
  const child = spawn(process.execPath, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
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
  return new Promise((resolve, reject) => {
    const onOutput = (chunk: Buffer) => {
      output += chunk.toString().replace(ANSI, '');
      if (ready) return;
      const origin = readyAt(output);
      if (origin === undefined) return;
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
    void exited.then(() => reject(new Error(`${what} exited with code ${child.exitCode} before it served:\n${output}`)));
  });
}

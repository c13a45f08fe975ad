/** The fixture app (fixtures/app.ts) as a child process: one replica of an app on a shared Redis store. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const APP = fileURLToPath(new URL('./fixtures/app.ts', import.meta.url));
const START_TIMEOUT_MS = 60_000;

export interface AppProcess {
  origin: string;
  child: ChildProcess;
}

/** Start one copy of the fixture app; resolves when it prints its port. */
export function startApp(env: Record<string, string>): Promise<AppProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', APP], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const fail = (reason: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`The fixture app did not start: ${reason}\n${output}`));
    };
    const timer = setTimeout(() => fail(`no "listening <port>" within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    child.once('exit', (code, signal) => fail(`it exited (${code ?? signal})`));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const port = /listening (\d+)/.exec(output)?.[1];
      if (port === undefined) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({ origin: `http://127.0.0.1:${port}`, child });
    });
  });
}

export async function stopApp({ child }: AppProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}


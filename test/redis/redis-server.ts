import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { freePort } from '../support/free-port.js';

/** A `redis-server` child process on a loopback port, which a test may stop and start again. */
export interface RedisServer {
  port: number;
  /** `redis://127.0.0.1:<port>` */
  url: string;
  /** Kill the server (SIGKILL: what a crash or a lost network looks like to clients). */
  stop(): Promise<void>;
  /** Start it again on the same port, empty. */
  start(): Promise<void>;
}

const INSTALL_HINT = 'sudo apt-get install -y redis-server';
const READY_LINE = 'Ready to accept connections';
const START_TIMEOUT_MS = 15_000;

/**
 * True when `redis-server` is installed. When it is not: on CI (`CI` set) this throws, so the
 * test file fails loudly; elsewhere it prints a loud warning and the caller skips its tests.
 */
export function hasRedisServer(): boolean {
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).error === undefined) return true;
  if (process.env.CI) throw new Error(`redis-server is not installed, and the Redis store tests must run on CI. Install it: ${INSTALL_HINT}`);
  const bar = '!'.repeat(100);
  console.warn(`\n${bar}\n!! redis-server is not installed: the Redis store tests are SKIPPED.\n!! Install it with: ${INSTALL_HINT}\n${bar}\n`);
  return false;
}

/** Spawn redis-server and resolve once it logs that it accepts connections. */
function spawnRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const fail = (reason: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`redis-server on port ${port} did not start: ${reason}\n${output}`));
    };
    const timer = setTimeout(() => fail(`no "${READY_LINE}" within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code, signal) => fail(`it exited (${code ?? signal})`));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(READY_LINE)) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        child.stdout!.removeAllListeners('data').resume();
        resolve(child);
      }
    });
  });
}

/** Start redis-server on a free loopback port, with no persistence. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined = await spawnRedis(port);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      const running = child;
      child = undefined;
      if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    },
    async start() {
      if (child !== undefined) throw new Error(`redis-server on port ${port} is already running.`);
      child = await spawnRedis(port);
    },
  };
}

// Process helpers. Children are started with fork() (IPC channel); a child reports
// readiness / results with process.send() and the parent awaits that message.
// No sleeps anywhere: the parent only ever waits on messages and exits.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const benchDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/**
 * Start bench/<script> and resolve with { child, msg } once it sends its first
 * message ({ type: 'ready', ... } or { type: 'result', ... }); reject on an
 * { type: 'error' } message, on exit before that, or after timeoutMs.
 */
export function startChild(script, args = [], { execArgv = [], timeoutMs = 60_000, env } = {}) {
  const child = fork(path.join(benchDir, script), args, {
    execArgv,
    // BENCH_NODE: run the subjects on another Node binary (the driver stays on this one).
    ...(process.env.BENCH_NODE ? { execPath: process.env.BENCH_NODE } : {}),
    // What a child prints (an enabled harness's start-up line on stdout) is kept for the error
    // messages below, not mixed into the report: children answer over IPC.
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    // NODE_ENV=production for production-like timings; the subjects' enabled harnesses (no token) are allowed there on purpose.
    env: { ...process.env, NODE_ENV: 'production', HARNESS_ALLOW_PRODUCTION: 'true', ...env },
  });
  let stderr = '';
  const keep = (d) => {
    stderr += d;
    if (stderr.length > 20_000) stderr = stderr.slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  child.exited = exited;
  child.stderrText = () => stderr;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} ${args.join(' ')}: no message within ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.once('message', (msg) => {
      clearTimeout(timer);
      if (msg && msg.type === 'error') {
        child.kill('SIGKILL');
        reject(new Error(`${script} ${args.join(' ')}: ${msg.message}`));
      } else resolve({ child, msg });
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${script} ${args.join(' ')} exited (code ${code}, signal ${signal}) before reporting\n${stderr}`));
    });
  });
}

/** Stop a child we started (by its handle, i.e. its pid) and wait for it to exit. */
export async function stopChild(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), 5000);
  await child.exited;
  clearTimeout(t);
}

/** In a child: report a fatal error to the parent and exit. */
export function failChild(err) {
  const message = err && err.stack ? err.stack : String(err);
  if (process.send) process.send({ type: 'error', message }, () => process.exit(1));
  else {
    console.error(message);
    process.exit(1);
  }
}

/**
 * Send `msg` to a child started with startChild and resolve with its next message; reject on an
 * { type: 'error' } message, on exit, or after timeoutMs.
 */
export function ask(child, msg, timeoutMs = 60_000) {
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (fn, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.off('message', onMessage);
      fn(value);
    };
    const onMessage = (reply) => {
      if (reply && reply.type === 'error') done(reject, new Error(reply.message));
      else done(resolve, reply);
    };
    const timer = setTimeout(() => done(reject, new Error(`no answer to ${JSON.stringify(msg)} within ${timeoutMs} ms\n${child.stderrText?.() ?? ''}`)), timeoutMs);
    child.on('message', onMessage);
    child.exited.then(({ code, signal }) => done(reject, new Error(`exited (code ${code}, signal ${signal}) before answering ${JSON.stringify(msg)}\n${child.stderrText?.() ?? ''}`)));
    child.send(msg);
  });
}

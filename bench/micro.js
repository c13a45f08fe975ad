// Child process: micro-benchmark of ONE outgoing-call interception subject.
//   node bench/micro.js <subject> <warmup> <n>
// Sequential `await fetch(URL)` + reading the JSON body (or the subject's client: undici.request,
// axios, got), N times after a warm-up; reports the mean (and p50/p99) per-call cost in
// microseconds. The subjects are in lib/micro-subjects.js.
import { timeSequentialCalls } from './lib/time-sequential-calls.js';
import { MICRO_URL as URL_ } from './lib/micro-harness.js';
import { MICRO_BODY_TEXT as BODY_TEXT, setupMicroSubject } from './lib/micro-subjects.js';
import { failChild } from './lib/proc.js';

const [subject, warmupArg, nArg] = process.argv.slice(2);
const WARMUP = Number(warmupArg || 500);
const N = Number(nArg || 2000);

async function main() {
  const { wrap, stop, call, url } = await setupMicroSubject(subject);
  // `call`, or the global fetch, looked up after setup: a subject may have replaced it.
  const result = await wrap(() => timeSequentialCalls({ call: call ?? globalThis.fetch, url: url ?? URL_, bodyText: BODY_TEXT, warmup: WARMUP, n: N, label: subject }));
  await stop();
  const cpu = process.cpuUsage();
  const cpuS = (cpu.user + cpu.system) / 1e6; // this process's whole life, for the parent's CPU accounting
  process.send({ type: 'result', subject, n: N, warmup: WARMUP, ...result, cpuS }, () => process.exit(0));
}

main().catch(failChild);

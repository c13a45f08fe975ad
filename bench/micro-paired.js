// Child process: ONE micro subject that times blocks of calls on demand, so that the parent
// (bench/run.js, the `paired` step) can alternate two subjects, each in a process of its own.
//   node bench/micro-paired.js <subject> <warmup> <warmupMs> <calibration>
// After `warmup` untimed calls (or as many as fit in `warmupMs`: a node:http client costs ten
// times what fetch does) and `calibration` timed ones it sends
//   { type: 'ready', calibrationUs }
// then answers every { type: 'block', n } with { type: 'block', meanUs, bad } (n sequential calls,
// timed as bench/micro.js times them, inside the subject's wrap: harness.run for the harness), and
// { type: 'stop' } with { type: 'stopped', cpuS } before it exits.
//
// Why two processes in alternating blocks: a subject compared with undici's MockAgent must not
// share its process with it. The harness's per-test AsyncLocalStorage (on Node 22 it runs promise
// hooks for every promise in the process, MockAgent's included) and its patches would slow the
// MockAgent side too and hide what they cost, so MockAgent runs bare, with nothing of ours loaded.
// And two processes timed one after the other see the machine's drift (±30% within a minute on a
// shared machine) as much as the subjects: blocks of a few milliseconds, alternated hundreds of
// times (ABBA), see the same machine. The same holds for this build against the previous one
// (interceptors 0.45 and 0.41), which cannot be loaded in one process either.
import { performance } from 'node:perf_hooks';
import { timeSequentialCalls } from './lib/time-sequential-calls.js';
import { MICRO_URL as URL_ } from './lib/micro-harness.js';
import { MICRO_BODY_TEXT as BODY_TEXT, setupMicroSubject } from './lib/micro-subjects.js';
import { failChild } from './lib/proc.js';

const [subject, warmupArg, warmupMsArg, calibrationArg] = process.argv.slice(2);
const WARMUP = Number(warmupArg || 10_000);
const WARMUP_MS = Number(warmupMsArg || 2_000);
const CALIBRATION = Number(calibrationArg || 1_000);
const WARMUP_CHUNK = 500;

async function main() {
  const { wrap, stop, call, url } = await setupMicroSubject(subject);
  const time = (n, warmup = 0) => wrap(() => timeSequentialCalls({ call: call ?? globalThis.fetch, url: url ?? URL_, bodyText: BODY_TEXT, warmup, n, label: subject }));
  const warmUntil = performance.now() + WARMUP_MS;
  for (let done = 0; done < WARMUP && performance.now() < warmUntil; done += WARMUP_CHUNK) await time(Math.min(WARMUP_CHUNK, WARMUP - done));
  const calibration = await time(CALIBRATION);
  if (calibration.bad > 0) throw new Error(`${subject}: ${calibration.bad} wrong answers`);
  // One block at a time: the parent waits for each answer before it asks the other process.
  let queue = Promise.resolve();
  process.on('message', (msg) => {
    queue = queue.then(async () => {
      if (msg?.type === 'block') {
        const r = await time(msg.n);
        process.send({ type: 'block', meanUs: r.meanUs, bad: r.bad });
      } else if (msg?.type === 'stop') {
        await stop();
        const cpu = process.cpuUsage();
        process.send({ type: 'stopped', cpuS: (cpu.user + cpu.system) / 1e6 }, () => process.exit(0));
      }
    }).catch(failChild);
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ type: 'ready', subject, calibrationUs: calibration.meanUs });
}

main().catch(failChild);

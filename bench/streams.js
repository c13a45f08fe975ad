// Streams (issue 40, performance): what paced, fast and LLM streams cost, in one process with a
// started harness, read by the app's own clients. Figures, not pass/fail: it prints each against
// the target.
//
//   npm run bench:streams              compiles dist/ (tsc, no clean), then this (about 30 s)
//   node bench/streams.js              against the existing dist/
//
// (a) 100 concurrent streams of 25 chunks at 20 ms a chunk (timing.intervalMs), read with fetch
//     (the web-stream pump) and with undici.request (the dispatcher pump). Each chunk's lateness
//     where the pump lets it go: a probe part (a `shape` step, as the streams part's holds are)
//     notes when the call's reply is handed to its layer (just before the pump starts the
//     schedule's clock: this over-states lateness by the time between) and gives the call a pacer
//     whose beforeChunk(i) notes the time, right after the pump's wait; lateness = that time less
//     (the hand-over + its offset in the schedule). Also shown: at the
//     client, its arrival less (the call's start + its offset), which adds the time to answer
//     100 calls at once and to carry each chunk to the reader (an over-statement).
//     Target: p50 ≤ 1 ms, p99 ≤ 5 ms.
// (b) One zero-delay SSE stream of 20,000 events: events a second, and that each arrives whole
//     (fetch: one read per event; undici: every event parsed back). Target ≥ 10,000/s.
// (c) An llm mock's render cost per chunk (openai.chat, 'word' chunking, a 300-word answer)
//     beside a hand-written stream.events of the same chunks, built per call (the events echo
//     the request's model, as a hand-written mock must: a template) and, for reference, the same
//     events without a template (built once, at load). Target: llm ≤ 1.2 × hand-written.
// Environment: BENCH_QUICK=1 (fewer rounds), BENCH_STREAMS=a,b,c (which parts).
import { performance } from 'node:perf_hooks';
import { TextDecoder } from 'node:util';
import { request } from 'undici';
import { createHarness } from '../dist/index.js';
import { createHarnessCore } from '../dist/core/create-harness.js';
import { buildReply } from '../dist/core/engine/build-response.js';
import { compileMock } from '../dist/core/engine/compile-mock.js';
import { streamClock } from '../dist/core/interception/stream-clock.js';

const QUICK = process.env.BENCH_QUICK === '1';
const PARTS = new Set((process.env.BENCH_STREAMS || 'a,b,c').split(','));
const decoder = new TextDecoder();

const STREAMS = 100;
const CHUNKS = 25;
const INTERVAL = 20;
const FAST_EVENTS = QUICK ? 5_000 : 20_000;
const WORDS = Array.from({ length: 300 }, (_, i) => `word${i % 17}`).join(' ');

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const fmt = (n, digits = 2) => n.toFixed(digits);

const scenarios = {
  default: {
    name: 'Streams',
    mocks: [
      { url: 'https://bench.test/paced', response: { stream: { chunks: Array.from({ length: CHUNKS }, (_, i) => `chunk ${i};`), timing: { intervalMs: INTERVAL } } } },
      { url: 'https://bench.test/fast', response: { stream: { events: Array.from({ length: FAST_EVENTS }, (_, i) => ({ data: { n: i } })) } } },
    ],
  },
};

/** Read one paced stream; each chunk's arrival less (the call's start + its offset). */
async function pacedLateness(client) {
  const started = performance.now();
  const fromStart = [];
  const chunkAt = (index) => fromStart.push(performance.now() - started - index * INTERVAL);
  if (client === 'fetch') {
    const reader = (await fetch('https://bench.test/paced')).body.getReader();
    let text = '';
    let seen = 0;
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      text += decoder.decode(read.value);
      const now = (text.match(/;/g) || []).length;
      while (seen < now) chunkAt(seen++);
    }
  } else {
    const { body } = await request('https://bench.test/paced');
    let seen = 0;
    for await (const chunk of body) {
      const now = seen + (String(chunk).match(/;/g) || []).length;
      while (seen < now) chunkAt(seen++);
    }
  }
  if (fromStart.length !== CHUNKS) throw new Error(`a paced stream gave ${fromStart.length} chunks, not ${CHUNKS}`);
  return { fromStart };
}

async function partA(harness) {
  console.log(`\n(a) ${STREAMS} concurrent streams, ${CHUNKS} chunks at ${INTERVAL} ms: lateness of each chunk against its schedule (target p50 ≤ 1 ms, p99 ≤ 5 ms)`);
  for (const client of ['fetch', 'undici']) {
    const rounds = QUICK ? 1 : 3;
    const all = [];
    const allFromStart = [];
    let peak = 0;
    // One round first, not counted: the first streams of a process also time its JIT warming up.
    await harness.run('bench', () => Promise.all(Array.from({ length: STREAMS }, () => pacedLateness(client))));
    pumped.length = 0;
    for (let round = 0; round < rounds; round++) {
      const watch = setInterval(() => (peak = Math.max(peak, streamClock.pending)), 5);
      const results = await harness.run('bench', () => Promise.all(Array.from({ length: STREAMS }, () => pacedLateness(client))));
      clearInterval(watch);
      for (const { fromStart } of results) allFromStart.push(...fromStart);
    }
    for (const { handedAt, times } of pumped) times.forEach((at, i) => all.push(at - handedAt - i * INTERVAL));
    if (pumped.length !== rounds * STREAMS) throw new Error(`the probe saw ${pumped.length} streams, not ${rounds * STREAMS}`);
    all.sort((a, b) => a - b);
    allFromStart.sort((a, b) => a - b);
    console.log(
      `  ${client.padEnd(7)} ${all.length} chunks, at the pump: p50 ${fmt(pct(all, 50))} ms, p90 ${fmt(pct(all, 90))} ms, p99 ${fmt(pct(all, 99))} ms, max ${fmt(all.at(-1))} ms; waits queued at once on the one clock: up to ${peak}`,
    );
    console.log(`  ${''.padEnd(7)} at the client, from the call's start: p50 ${fmt(pct(allFromStart, 50))} ms, p99 ${fmt(pct(allFromStart, 99))} ms`);
  }
}

async function partB(harness) {
  console.log(`\n(b) one zero-delay SSE stream of ${FAST_EVENTS} events (target ≥ 10,000 events/s, each arriving whole)`);
  const rounds = QUICK ? 2 : 5;
  for (const client of ['fetch', 'undici']) {
    let best = 0;
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      let events = 0;
      let whole = true;
      await harness.run('bench', async () => {
        if (client === 'fetch') {
          const reader = (await fetch('https://bench.test/fast')).body.getReader();
          for (let read = await reader.read(); !read.done; read = await reader.read()) {
            const text = decoder.decode(read.value);
            // One read, one event: `data: {"n":i}` and its blank line, nothing more or less.
            if (text !== `data: {"n":${events}}\n\n`) whole = false;
            events++;
          }
        } else {
          const { body } = await request('https://bench.test/fast');
          let text = '';
          for await (const chunk of body) text += chunk;
          const parsed = text.split('\n\n').filter(Boolean);
          whole = parsed.every((event, i) => event === `data: {"n":${i}}`);
          events = parsed.length;
        }
      });
      const seconds = (performance.now() - started) / 1000;
      if (events !== FAST_EVENTS || !whole) throw new Error(`${client}: ${events} events, whole: ${whole}`);
      best = Math.max(best, events / seconds);
    }
    console.log(`  ${client.padEnd(7)} ${fmt(best, 0)} events/s (best of ${rounds}), every event whole${client === 'fetch' ? ' and in a read of its own' : ''}`);
  }
}

function partC() {
  console.log('\n(c) render cost per chunk: an llm mock beside a hand-written stream.events of the same chunks (target ≤ 1.2×)');
  const CONTEXT = { params: {}, url: new URL('https://api.openai.com/v1/chat/completions'), headers: new Headers(), body: { model: 'gpt-5.5', stream: true, messages: [] }, state: {}, variant: undefined };
  const llmMock = compileMock({ url: 'https://api.openai.com/v1/chat/completions', response: { llm: { api: 'openai.chat', text: WORDS } } }, 0, 'default#0', { scenarioId: 'default' });
  const sample = buildReply(llmMock.responses[0], CONTEXT).stream.chunks.map((chunk) => decoder.decode(chunk));
  // The same chunks by hand: each event's JSON, the model echoed by a template as the mock must.
  const events = sample.map((chunk) => {
    const data = chunk.slice('data: '.length, -2);
    if (data === '[DONE]') return { data };
    const json = JSON.parse(data);
    return { data: { ...json, model: '{{body.model}}' } };
  });
  const handMock = compileMock({ url: 'https://api.openai.com/v1/chat/completions', response: { stream: { events } } }, 0, 'default#1', { scenarioId: 'default' });
  const fixedMock = compileMock({ url: 'https://api.openai.com/v1/chat/completions', response: { stream: { events: sample.map((chunk) => ({ data: chunk.slice(6, -2) })) } } }, 0, 'default#2', { scenarioId: 'default' });
  const chunks = sample.length;
  const time = (mock) => {
    const calls = QUICK ? 200 : 2000;
    for (let i = 0; i < calls / 4; i++) buildReply(mock.responses[0], CONTEXT);
    let best = Infinity;
    for (let round = 0; round < 5; round++) {
      const started = performance.now();
      for (let i = 0; i < calls; i++) buildReply(mock.responses[0], CONTEXT);
      best = Math.min(best, ((performance.now() - started) * 1000) / calls / chunks);
    }
    return best;
  };
  // Alternate, so the machine's drift falls on both.
  let llm = Infinity;
  let hand = Infinity;
  for (let i = 0; i < 3; i++) {
    llm = Math.min(llm, time(llmMock));
    hand = Math.min(hand, time(handMock));
  }
  const fixed = time(fixedMock);
  console.log(`  ${chunks} chunks a call: llm ${fmt(llm, 3)} µs/chunk, hand-written events (templated) ${fmt(hand, 3)} µs/chunk: ${fmt(llm / hand)}×`);
  console.log(`  for reference, the same events without a template are built once at load: ${fmt(fixed, 4)} µs/chunk a call`);
}

/** Per paced stream: when the pump let each chunk go (pacer.beforeChunk, right after its wait). */
const pumped = [];
const PROBE = {
  name: 'the bench probe',
  routes: [],
  create: () => ({
    steps: {
      shape: {
        stream(_call, _testId, _mock, reply) {
          const times = [];
          pumped.push({ handedAt: performance.now(), times });
          const pacer = { beforeChunk: () => void times.push(performance.now()), ended() {} };
          return { ...reply, stream: { ...reply.stream, pacer } };
        },
      },
    },
  }),
};

console.log(`Node ${process.version}${QUICK ? ' (BENCH_QUICK)' : ''}`);
if (PARTS.has('a')) {
  const probed = createHarnessCore({ enabled: true, scenarios, unhandled: 'error', announce: false, journal: false }, [PROBE]);
  await probed.start();
  try {
    await partA(probed);
  } finally {
    await probed.stop();
  }
}
const harness = createHarness({ enabled: true, scenarios, unhandled: 'error', announce: false });
await harness.start();
try {
  if (PARTS.has('b')) await partB(harness);
  if (PARTS.has('c')) partC();
} finally {
  await harness.stop();
}

#!/usr/bin/env node
// WebSockets (issue 41, performance): what a socket mock costs the app's client beside a plain `ws`
// server on loopback doing the same work, measured in the same run. Figures against the issue's
// targets, in one table (met / not met); nothing here fails a build.
//
//   npx tsc -p tsconfig.build.json && node bench/sockets.js     (about 1-2 minutes)
//   node bench/sockets.js --only latency,throughput,browser --roundtrips 4000 --rounds 5
//   node bench/sockets.js --quick                              (smoke run, a few seconds)
//
// Options: --only <list> (latency, throughput, browser; default all), --roundtrips <n> (timed
// sequential round trips per side, default 4000, after --warmup <n>, default 1000), --rounds <n>
// (throughput rounds per side, alternating harness and reference, median kept; default 5),
// --frames <n> (frames a round on one socket, default 20000), --sockets <n> and --frames-each <n>
// (the many-sockets round, default 50 × 2000), --browser-roundtrips <n> (default 500),
// --timeout <s> (the whole run, default 600), --quick, --no-journal (the harness with journal: false:
// what journaling each frame costs; the app → mock journal check is then skipped).
//
// In process (latency, throughput): one Node process, one JS thread, holds the app's clients (the
// `ws` package), the started harness and its bridge (a `ws` WebSocketServer on 127.0.0.1), or the
// reference server (a plain `ws` WebSocketServer on 127.0.0.1, perMessageDeflate off as the
// bridge's). The reference's clients connect before the harness starts (see openAll); each
// harness socket is opened inside harness.run(testId) against a wss:// URL that a
// scenario's socket mock answers; its frames cross real loopback TCP to the bridge, as the
// reference's do to its server. No delays (no `delay` steps; timing does not matter).
//
// (latency) Sequential round trips: the client sends {"type":"ping"}, waits for the answer.
//     Harness: a rule { match: { json: { type: 'ping' } }, steps: [{ send: { json: { type: 'pong' } } }] }.
//     Reference: the server's 'message' handler parses the JSON and sends {"type":"pong"}.
//     Blocks of 500 alternate between the two sides; added = harness − reference at p50 and p99.
//     Target: added p50 ≤ 50 µs, p99 ≤ 0.5 ms.
// (throughput, mock → app) The client sends one "burst" frame; a rule whose steps are N sends of
//     the same 1 KiB text frame answers it (the reference: the handler sends the frame N times in
//     a loop). Timed from the burst frame to the client's Nth frame, each checked to be 1,024
//     bytes. A rule with many sends is the mock's own sending path (step after step on the
//     socket's queue, each frame built and journaled) without the cost of matching an incoming
//     frame per outgoing one, so it measures what sending a frame costs; an onConnect would add
//     the handshake to the time, and the test's pushes (HTTP) are far slower than the sending.
//     Target ≥ 20,000 frames/s on one socket.
// (throughput, app → mock) The client sends N 1 KiB JSON frames {"type":"data","seq":i,"pad":…}
//     then {"type":"end"}; a rule { json: { type: 'data' } } with no steps matches and journals
//     each, and a rule { json: { type: 'end' } } answers "done" (the reference: the handler parses
//     each frame and answers "done" to the end). Steps run in order on one queue per socket, so
//     "done" comes after every frame before it was matched; the journal's last data entry is
//     checked to be seq N−1. Timed from the first send to "done". Target ≥ 20,000 frames/s.
// (throughput, many sockets) The same both ways on --sockets sockets at once, each opened in a
//     test ID of its own (bench-0 … bench-49), --frames-each frames each; frames/s = all frames ÷
//     the time until the last socket is done. Target ≥ 100,000 frames/s (one JS thread: the
//     clients and the harness share it, as they do in the reference).
// (browser) Debian's chromium (/usr/bin/chromium, or PLAYWRIGHT_CHROMIUM_PATH) through
//     @playwright/test. The app (Express + the harness, in a child process) also runs the
//     reference ws server. Round trips timed inside the page with performance.now(), sequential:
//     - direct: the page's WebSocket to the reference server, not routed;
//     - playwright route: the same URL through context.routeWebSocket + connectToServer (what
//       Playwright's routing alone costs);
//     - playwright handler: a routeWebSocket handler answering the ping in Node (onMessage → send),
//       no server: Playwright's hop to the test process, which the fixture's relay also takes;
//     - harness: wss://feed.bench.test/rt through context.routeWebSocket + answerSocketRoute
//       (dist/playwright/route-browser-sockets.js, the fixture's relay) with a HarnessClient: the
//       page → Playwright → the relay's ws client → the app's bridge → the socket mock, and back.
//     Target: harness − direct ≤ 2 ms at p50. Skipped, saying so, without chromium.
/* global performance, WebSocket -- measureInPage runs in the page */
import fs, { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance as perf } from 'node:perf_hooks';
import { setImmediate } from 'node:timers';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import WebSocket_, { WebSocketServer } from 'ws';
import { textTable } from './lib/text-table.js';

const { values: opts } = parseArgs({
  options: {
    only: { type: 'string' },
    roundtrips: { type: 'string' },
    warmup: { type: 'string' },
    rounds: { type: 'string' },
    frames: { type: 'string' },
    sockets: { type: 'string' },
    'frames-each': { type: 'string' },
    'browser-roundtrips': { type: 'string' },
    timeout: { type: 'string' },
    quick: { type: 'boolean' },
    'no-journal': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (opts.help) {
  console.log('node bench/sockets.js [--only latency,throughput,browser] [--roundtrips n] [--warmup n] [--rounds n] [--frames n] [--sockets n] [--frames-each n] [--browser-roundtrips n] [--timeout s] [--quick] [--no-journal]');
  process.exit(0);
}
const QUICK = !!opts.quick;
const int = (v, d) => (v === undefined ? d : Math.max(1, Number.parseInt(v, 10) || d));
const CFG = {
  roundtrips: int(opts.roundtrips, QUICK ? 500 : 4000),
  warmup: int(opts.warmup, QUICK ? 200 : 1000),
  rounds: int(opts.rounds, QUICK ? 1 : 5),
  frames: int(opts.frames, QUICK ? 2000 : 20_000),
  sockets: int(opts.sockets, 50),
  framesEach: int(opts['frames-each'], QUICK ? 200 : 2000),
  browserRoundtrips: int(opts['browser-roundtrips'], QUICK ? 100 : 500),
  timeout: int(opts.timeout, 600),
};
const PARTS = new Set((opts.only ?? 'latency,throughput,browser').split(',').map((s) => s.trim()));
for (const part of PARTS) if (!['latency', 'throughput', 'browser'].includes(part)) throw new Error(`--only: unknown part ${part} (latency, throughput, browser)`);

// The build measured: dist/ copied (with package.json) to bench/results/sockets-build/ at the start,
// so that a rebuild of dist/ by someone else during the run changes nothing (the browser part's
// child imports the same copy, through BENCH_SOCKETS_BUILD).
const benchDir = path.dirname(fileURLToPath(import.meta.url));
const rootDir = path.dirname(benchDir);
const BUILD = path.join(benchDir, 'results', 'sockets-build');
if (!existsSync(path.join(rootDir, 'dist', 'playwright', 'route-browser-sockets.js'))) {
  console.error('bench/sockets.js measures the built package: build dist/ first (npx tsc -p tsconfig.build.json).');
  process.exit(1);
}
fs.rmSync(BUILD, { recursive: true, force: true });
fs.mkdirSync(BUILD, { recursive: true });
fs.copyFileSync(path.join(rootDir, 'package.json'), path.join(BUILD, 'package.json'));
fs.cpSync(path.join(rootDir, 'dist'), path.join(BUILD, 'dist'), { recursive: true });
const fromBuild = (file) => import(pathToFileURL(path.join(BUILD, 'dist', file)).href);
const { createHarness } = await fromBuild('index.js');

// Everything is bounded: a run past --timeout stops with what it has not measured named.
let phase = 'start-up';
setTimeout(() => {
  console.error(`bench/sockets.js: over ${CFG.timeout} s (in ${phase}); stopped.`);
  process.exit(2);
}, CFG.timeout * 1000).unref();

const FRAME_1K = 'x'.repeat(1024);
const dataFrame = (seq) => {
  const head = JSON.stringify({ type: 'data', seq, pad: '' });
  return JSON.stringify({ type: 'data', seq, pad: 'p'.repeat(1024 - head.length) });
};
if (dataFrame(12345).length !== 1024) throw new Error('the 1 KiB data frame is not 1,024 bytes');

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const us = (ms) => `${(ms * 1000).toFixed(1)} µs`;
const signed = (text, n) => (n < 0 ? `−${text(-n)}` : `+${text(n)}`);
const msf = (ms) => `${ms.toFixed(2)} ms`;
const rate = (n) => `${Math.round(n).toLocaleString('en-US')}/s`;
const progress = (text) => process.stderr.write(`${text}\n`);

const scenarios = {
  default: {
    name: 'Sockets bench',
    mocks: [],
    sockets: [
      { url: 'wss://bench.test/rt', on: [{ match: { json: { type: 'ping' } }, steps: [{ send: { json: { type: 'pong' } } }] }] },
      { url: 'wss://bench.test/out/:n', on: [{ match: { text: 'burst' }, steps: [] }] },
      {
        url: 'wss://bench.test/in',
        on: [
          { match: { json: { type: 'data' } }, steps: [] },
          { match: { json: { type: 'end' } }, steps: [{ send: 'done' }] },
        ],
      },
    ],
  },
};
// One burst rule per size (a rule's steps are fixed): /out/<n> answers "burst" with n frames.
const burstSizes = [...new Set([CFG.frames, CFG.framesEach])];
scenarios.default.sockets.splice(1, 1, ...burstSizes.map((n) => ({ url: `wss://bench.test/out/${n}`, on: [{ match: { text: 'burst' }, steps: Array.from({ length: n }, () => ({ send: FRAME_1K })) }] })));

/** A `ws` client with one pending reader: `next(count)` resolves after `count` more frames, checking each with `check`. */
function client(url) {
  const ws = new WebSocket_(url);
  let want = 0;
  let got = 0;
  let done;
  let check;
  let bad;
  ws.on('message', (data) => {
    if (check !== undefined && !check(data)) bad ??= `unexpected frame ${String(data).slice(0, 60)}`;
    if (++got === want) {
      const resolve = done;
      done = undefined;
      resolve();
    }
  });
  const opened = new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
    ws.once('close', (code) => reject(new Error(`${url} closed (${code}) before opening`)));
  });
  return {
    ws,
    opened,
    /** Resolves once `count` more frames have arrived. */
    next(count, checkFrame) {
      check = checkFrame;
      got = 0;
      want = count;
      return new Promise((resolve, reject) => {
        done = () => (bad === undefined ? resolve() : reject(new Error(`${url}: ${bad}`)));
      });
    },
    close: () => new Promise((resolve) => (ws.readyState === ws.CLOSED ? resolve() : (ws.once('close', resolve), ws.close()))),
  };
}

/** The reference: a plain ws server on loopback doing what the socket mock's rules do. */
async function startReference() {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  wss.on('connection', (ws, request) => {
    const path = request.url;
    ws.on('message', (data) => {
      if (path === '/rt') {
        if (JSON.parse(String(data)).type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
      } else if (path.startsWith('/out/')) {
        if (String(data) === 'burst') for (let i = 0, n = Number(path.slice(5)); i < n; i++) ws.send(FRAME_1K);
      } else if (path === '/in') {
        if (JSON.parse(String(data)).type === 'end') ws.send('done');
      }
    });
  });
  await new Promise((resolve) => wss.once('listening', resolve));
  return { wss, port: wss.address().port, origin: `ws://127.0.0.1:${wss.address().port}` };
}

const rows = [['measure', 'reference (plain ws)', 'harness', 'added / ratio', 'target', 'met']];
const notes = [];
const met = (ok) => (ok ? 'met' : 'NOT MET');

/**
 * The sockets every in-process case uses, opened once. The reference's are opened BEFORE the
 * harness starts: once it runs, the `ws` client's handshake to a loopback server no mock answers
 * goes through the harness too (node:http upgrades go to its bridge, which carries them on to the
 * real server), and every frame of it crosses the bridge's relay: that would not be a plain ws
 * reference. A connection opened before start() is a plain TCP socket the harness never touches.
 */
const SIDES = ['reference', 'harness'];
function socketPlan() {
  const plan = [['rt', '/rt', 1]];
  if (PARTS.has('throughput')) plan.push(['out-one', `/out/${CFG.frames}`, 1], ['in-one', '/in', 1], ['out-many', `/out/${CFG.framesEach}`, CFG.sockets], ['in-many', '/in', CFG.sockets]);
  return plan;
}
async function openAll(side, ref, harness) {
  const sockets = {};
  for (const [key, path, count] of socketPlan()) {
    sockets[key] = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const c = side === 'harness' ? harness.run(`bench-${key}-${i}`, () => client(`wss://bench.test${path}`)) : client(`${ref.origin}${path}`);
        await c.opened;
        return c;
      }),
    );
  }
  if (side === 'reference') {
    // Checked: each reference client is connected straight to the reference server's port.
    for (const list of Object.values(sockets)) for (const c of list) if (c.ws._socket.remotePort !== ref.port) throw new Error(`a reference socket is connected to port ${c.ws._socket.remotePort}, not the server's ${ref.port}`);
  }
  return sockets;
}

async function latency(sockets) {
  phase = 'latency';
  const isPong = (data) => String(data) === '{"type":"pong"}';
  const ping = JSON.stringify({ type: 'ping' });
  const times = { reference: [], harness: [] };
  const roundTrips = async (c, count, into) => {
    for (let i = 0; i < count; i++) {
      const started = perf.now();
      const answered = c.next(1, isPong);
      c.ws.send(ping);
      await answered;
      into?.push(perf.now() - started);
    }
  };
  for (const side of SIDES) await roundTrips(sockets[side].rt[0], CFG.warmup);
  // Alternating blocks: the machine's drift falls on both sides.
  const BLOCK = 500;
  for (let done = 0; done < CFG.roundtrips; done += BLOCK) {
    const count = Math.min(BLOCK, CFG.roundtrips - done);
    for (const side of SIDES) await roundTrips(sockets[side].rt[0], count, times[side]);
  }
  const [r, h] = [times.reference.sort((a, b) => a - b), times.harness.sort((a, b) => a - b)];
  const [r50, h50, r99, h99] = [pct(r, 50), pct(h, 50), pct(r, 99), pct(h, 99)];
  rows.push([`round trip p50 (${CFG.roundtrips} sequential, ws client)`, us(r50), us(h50), `${signed(us, h50 - r50)} (${(h50 / r50).toFixed(2)}×)`, 'added ≤ 50 µs', met(h50 - r50 <= 0.05)]);
  rows.push(['round trip p99', us(r99), us(h99), `${signed(us, h99 - r99)} (${(h99 / r99).toFixed(2)}×)`, 'added ≤ 500 µs', met(h99 - r99 <= 0.5)]);
  progress(`latency: reference p50 ${us(r50)} p99 ${us(r99)}; harness p50 ${us(h50)} p99 ${us(h99)}`);
}

/** One throughput round on the given open sockets at once; frames/s over all of them. */
async function throughputRound(harness, side, key, sockets, direction, frames) {
  let started;
  if (direction === 'out') {
    const isFrame = (data) => data.length === 1024;
    const all = sockets.map((c) => c.next(frames, isFrame));
    started = perf.now();
    for (const c of sockets) c.ws.send('burst');
    await Promise.all(all);
  } else {
    const payloads = Array.from({ length: frames }, (_, i) => dataFrame(i));
    const all = sockets.map((c) => c.next(1, (data) => String(data) === 'done'));
    started = perf.now();
    // Sent in slices, socket by socket, so the sockets' frames interleave as concurrent apps' would.
    const SLICE = 100;
    for (let from = 0; from < frames; from += SLICE) {
      for (const c of sockets) for (let i = from; i < Math.min(frames, from + SLICE); i++) c.ws.send(payloads[i]);
      await new Promise(setImmediate);
    }
    const end = JSON.stringify({ type: 'end' });
    for (const c of sockets) c.ws.send(end);
    await Promise.all(all);
  }
  const seconds = (perf.now() - started) / 1000;
  if (side === 'harness' && direction === 'in' && !opts['no-journal']) {
    // The journal (its last maxEntries entries) shows the last data frame matched the data rule.
    for (const i of [0, sockets.length - 1]) {
      const entries = await harness.getCalls(`bench-${key}-${i}`);
      const last = entries.filter((e) => e.socket?.direction === 'sent' && e.socket.rule === 'on[0]').at(-1);
      if (last === undefined || JSON.parse(last.socket.data).seq !== frames - 1) throw new Error(`bench-${key}-${i}: the journal's last data frame is ${last?.socket?.data?.slice(0, 40)}, not seq ${frames - 1}`);
    }
  }
  return (sockets.length * frames) / seconds;
}

async function throughput(harness, sockets) {
  const cases = [
    ['mock → app, one socket', 'out-one', CFG.frames, 20_000],
    ['app → mock, one socket', 'in-one', CFG.frames, 20_000],
    [`mock → app, ${CFG.sockets} tests' sockets`, 'out-many', CFG.framesEach, 100_000],
    [`app → mock, ${CFG.sockets} tests' sockets`, 'in-many', CFG.framesEach, 100_000],
  ];
  for (const [label, key, frames, target] of cases) {
    phase = `throughput: ${label}`;
    const direction = key.split('-')[0];
    const round = (side) => throughputRound(harness, side, key, sockets[side][key], direction, frames);
    // A warm-up round each, then alternate.
    for (const side of SIDES) await round(side);
    const got = { reference: [], harness: [] };
    for (let i = 0; i < CFG.rounds; i++) for (const side of SIDES) got[side].push(await round(side));
    const [r, h] = [median(got.reference), median(got.harness)];
    const count = sockets.harness[key].length;
    rows.push([`${label}, 1 KiB frames (${count} × ${frames}, median of ${CFG.rounds})`, rate(r), rate(h), `${(h / r).toFixed(2)}×`, `≥ ${rate(target)}`, met(h >= target)]);
    progress(`${label}: reference ${got.reference.map(rate).join(' ')}; harness ${got.harness.map(rate).join(' ')}`);
  }
}

/** `count` sequential round trips in the page over a WebSocket to `url`; per-trip milliseconds. */
function measureInPage(page, url, warmup, count) {
  return page.evaluate(
    async ({ url, warmup, count }) => {
      const ws = new WebSocket(url);
      await new Promise((resolve, reject) => {
        ws.onopen = resolve;
        ws.onerror = () => reject(new Error(`${url}: error before opening`));
      });
      let answer;
      ws.onmessage = (event) => answer(event.data);
      const trip = () =>
        new Promise((resolve, reject) => {
          answer = (data) => (data === '{"type":"pong"}' ? resolve() : reject(new Error(`answered ${data}`)));
          ws.send('{"type":"ping"}');
        });
      for (let i = 0; i < warmup; i++) await trip();
      const times = [];
      for (let i = 0; i < count; i++) {
        const started = performance.now();
        await trip();
        times.push(performance.now() - started);
      }
      ws.close();
      return times;
    },
    { url, warmup, count },
  );
}

async function browser() {
  phase = 'browser';
  const executablePath = process.env.PLAYWRIGHT_CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    notes.push(`browser: skipped, no chromium at ${executablePath} (sudo apt-get install -y chromium, or set PLAYWRIGHT_CHROMIUM_PATH).`);
    rows.push(['browser round trip p50', '-', '-', 'skipped: no chromium', 'added ≤ 2 ms', '-']);
    return;
  }
  const { chromium } = await import('@playwright/test');
  const { createHarnessClient } = await fromBuild('client/index.js');
  const { answerSocketRoute } = await fromBuild('playwright/route-browser-sockets.js');
  const { startChild, stopChild } = await import('./lib/proc.js');
  const SOCKET_URL = 'wss://feed.bench.test/rt';
  const app = await startChild('sockets-browser-app.js', [], { env: { BENCH_SOCKET_URL: SOCKET_URL, BENCH_SOCKETS_BUILD: BUILD } });
  const baseURL = `http://127.0.0.1:${app.msg.port}`;
  const referenceURL = `ws://127.0.0.1:${app.msg.referencePort}/rt`;
  const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
  const b = await chromium.launch({ executablePath, args: ARGS });
  try {
    const harnessClient = createHarnessClient({ baseURL, testId: 'bench-browser', logger: { warn: () => {} } });
    const subjects = {
      direct: { url: referenceURL, route: undefined },
      'playwright route': { url: referenceURL, route: (ws) => ws.connectToServer() },
      // Playwright's own answer in Node (route.onMessage → route.send), with no relay: the hop the
      // harness's relay rides on, so harness − this is the relay, the bridge and the socket mock.
      'playwright handler': {
        url: 'wss://echo.bench.test/rt',
        route: (ws) =>
          ws.onMessage((message) => {
            if (JSON.parse(String(message)).type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
          }),
      },
      harness: { url: SOCKET_URL, route: (ws) => answerSocketRoute(ws, harnessClient) },
    };
    const times = Object.fromEntries(Object.keys(subjects).map((name) => [name, []]));
    const WARMUP = Math.min(100, CFG.browserRoundtrips);
    // Two rounds, alternating, each in a fresh context and page; all samples pooled.
    for (let round = 0; round < 2; round++) {
      for (const [name, { url, route }] of Object.entries(subjects)) {
        const context = await b.newContext({ baseURL });
        try {
          if (route !== undefined) await context.routeWebSocket(url, route);
          const page = await context.newPage();
          await page.goto('/');
          times[name].push(...(await measureInPage(page, url, WARMUP, Math.ceil(CFG.browserRoundtrips / 2))));
        } finally {
          await context.close();
        }
      }
    }
    const q = Object.fromEntries(Object.entries(times).map(([name, list]) => [name, list.sort((x, y) => x - y)]));
    const [d, p, e, h] = [q.direct, q['playwright route'], q['playwright handler'], q.harness];
    rows.push([`browser round trip p50 (${d.length} sequential, chromium)`, msf(pct(d, 50)), msf(pct(h, 50)), signed(msf, pct(h, 50) - pct(d, 50)), 'added ≤ 2 ms', met(pct(h, 50) - pct(d, 50) <= 2)]);
    rows.push(['browser round trip p99', msf(pct(d, 99)), msf(pct(h, 99)), signed(msf, pct(h, 99) - pct(d, 99)), '-', '-']);
    notes.push(`browser: Playwright's routing alone (routeWebSocket + connectToServer to the same plain server): p50 ${msf(pct(p, 50))} (${signed(msf, pct(p, 50) - pct(d, 50))} over direct), p99 ${msf(pct(p, 99))}; a routeWebSocket handler answering in Node itself (no relay): p50 ${msf(pct(e, 50))} (${signed(msf, pct(e, 50) - pct(d, 50))} over direct), p99 ${msf(pct(e, 99))}, so the harness's relay, bridge and socket mock add ${signed(msf, pct(h, 50) - pct(e, 50))} at p50 on top of Playwright's handler hop. The page's performance.now() is coarsened (0.1 ms steps in chromium).`);
    progress(`browser: direct p50 ${msf(pct(d, 50))}, playwright route ${msf(pct(p, 50))}, playwright handler ${msf(pct(e, 50))}, harness ${msf(pct(h, 50))}`);
  } finally {
    await b.close();
    await stopChild(app.child);
  }
}

const load = os.loadavg().map((n) => n.toFixed(2)).join(' ');
console.log(`Node ${process.version}, ${os.cpus().length} cores, load average at start ${load}${QUICK ? ' (--quick)' : ''}${opts['no-journal'] ? ' (--no-journal: the harness with journal: false)' : ''}`);
if (PARTS.has('latency') || PARTS.has('throughput')) {
  phase = 'opening sockets';
  const ref = await startReference();
  const sockets = { reference: await openAll('reference', ref) };
  const harness = createHarness({ enabled: true, scenarios, unhandled: 'error', announce: false, ...(opts['no-journal'] ? { journal: false } : {}) });
  await harness.start();
  try {
    sockets.harness = await openAll('harness', ref, harness);
    if (PARTS.has('latency')) await latency(sockets);
    if (PARTS.has('throughput')) await throughput(harness, sockets);
  } finally {
    for (const side of SIDES) for (const list of Object.values(sockets[side] ?? {})) for (const c of list) c.ws.terminate();
    ref.wss.close();
    await harness.stop();
  }
}
if (PARTS.has('browser')) await browser();
console.log(`\n${textTable(rows)}`);
for (const note of notes) console.log(`\n${note}`);
console.log(`\nload average at end ${os.loadavg().map((n) => n.toFixed(2)).join(' ')}`);

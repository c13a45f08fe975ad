/**
 * An Express app with the harness on whose routes open WebSockets, with the client a test names:
 * a socket opened in `POST /open` belongs to the test of that request for its whole life. The
 * other routes send on it, ping it, wait for what it got and close it, each answering JSON (a test
 * may add routes of its own). A
 * test drives it over real HTTP with `createHarnessClient`, as an end-to-end test would.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createHarness, type HarnessOptions, type JournalEntry, type ScenarioMap } from 'scenario-harness';
import { createHarnessClient, type HarnessClient } from 'scenario-harness/client';
import { harnessMiddleware } from 'scenario-harness/express';
import { WebSocket as UndiciWebSocket } from 'undici';
import WebSocket from 'ws';

export type ClientName = 'global' | 'ws' | 'undici';
export const CLIENTS: readonly ClientName[] = ['global', 'ws', 'undici'];

/** A frame the app got: a text frame's text, or a binary frame's bytes as base64. */
export type Got = { text: string } | { binary: string };
/** What the app sends: text, bytes as base64, or (ws only) one message in fragments. */
export type Out = { text: string } | { binary: string } | { fragments: string[] };

/** One open socket of the app, whatever its client: what it got, how it closed. */
export class AppSocket {
  readonly got: Got[] = [];
  closed: { code: number; reason: string } | undefined;
  error: string | undefined;
  #waiters = new Set<() => void>();

  constructor(
    readonly client: ClientName,
    readonly socket: WebSocket | globalThis.WebSocket | UndiciWebSocket,
  ) {}

  changed() {
    for (const waiter of this.#waiters) waiter();
  }

  /** Resolves once `done()` holds (checked at each frame and at the close); fails after `ms`. */
  until(done: () => boolean, what: string, ms = 5000): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`the app's ${this.client} socket: no ${what} within ${ms} ms (got ${JSON.stringify(this.got)}, closed ${JSON.stringify(this.closed)})`));
      }, ms);
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve();
      };
      this.#waiters.add(check);
    });
  }

  get protocol(): string {
    return this.socket.protocol;
  }
}

/** Open a socket with `client`; resolves once it is open (or closed/failed, which the socket then says). */
export function openSocket(client: ClientName, url: string, protocols?: string[]): Promise<AppSocket> {
  if (client === 'ws') {
    const socket = new WebSocket(url, protocols);
    const app = new AppSocket(client, socket);
    socket.on('message', (data, binary) => {
      const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
      app.got.push(binary ? { binary: bytes.toString('base64') } : { text: bytes.toString('utf8') });
      app.changed();
    });
    socket.on('error', (error) => {
      app.error = error.message;
      app.changed();
    });
    socket.on('close', (code, reason) => {
      app.closed = { code, reason: reason.toString('utf8') };
      app.changed();
    });
    return new Promise((resolve) => {
      socket.once('open', () => resolve(app));
      socket.once('close', () => resolve(app));
    });
  }
  const Client = client === 'global' ? globalThis.WebSocket : UndiciWebSocket;
  const socket = new Client(url, protocols) as globalThis.WebSocket;
  socket.binaryType = 'arraybuffer';
  const app = new AppSocket(client, socket);
  socket.addEventListener('message', (event) => {
    app.got.push(typeof event.data === 'string' ? { text: event.data } : { binary: Buffer.from(event.data as ArrayBuffer).toString('base64') });
    app.changed();
  });
  socket.addEventListener('error', () => {
    app.error = 'error event';
    app.changed();
  });
  socket.addEventListener('close', (event) => {
    app.closed = { code: event.code, reason: event.reason };
    app.changed();
  });
  // A failed handshake fires 'error' then 'close' on undici 7; Node 22's undici (6) fires 'error' alone.
  return new Promise((resolve) => {
    socket.addEventListener('open', () => resolve(app), { once: true });
    socket.addEventListener('error', () => resolve(app), { once: true });
    socket.addEventListener('close', () => resolve(app), { once: true });
  });
}

/** Send one frame the app's way. */
export function sendFrame(app: AppSocket, out: Out): void {
  if ('fragments' in out) {
    if (app.client !== 'ws') throw new Error('fragments: ws only');
    const socket = app.socket as WebSocket;
    out.fragments.forEach((part, index) => socket.send(part, { fin: index === out.fragments.length - 1 }));
    return;
  }
  const data = 'text' in out ? out.text : Buffer.from(out.binary, 'base64');
  if (app.client === 'ws') (app.socket as WebSocket).send(data, { binary: 'binary' in out });
  else (app.socket as globalThis.WebSocket).send(data);
}

const view = (app: AppSocket) => ({ protocol: app.protocol, got: app.got, closed: app.closed, error: app.error });

/** The app's own sockets, by the key the test gave them. */
const sockets = new Map<string, AppSocket>();

/**
 * Start the harness, then the app. `client(scenario?, variant?)` makes a fresh test's client
 * (switched when a scenario is named); `call(client, route, body)` posts to the app as that test.
 */
export async function startSocketApp<S extends ScenarioMap>(scenarios: S, options: Partial<HarnessOptions<S>> = {}, more: Record<string, (body: Record<string, unknown>) => Promise<unknown>> = {}) {
  const logs: string[] = [];
  const harness = createHarness({
    enabled: true,
    unhandled: 'error',
    announce: false,
    logger: { warn: (message) => logs.push(`warn: ${message}`), error: (message) => logs.push(`error: ${message}`) },
    ...options,
    scenarios,
  } as HarnessOptions<S>);
  await harness.start();
  const app = express();
  app.use(harnessMiddleware(harness));
  app.use(express.json());
  const routes: Record<string, (body: Record<string, unknown>) => Promise<unknown>> = {
    async open({ key, client, url, protocols }) {
      const socket = await openSocket(client as ClientName, url as string, protocols as string[] | undefined);
      sockets.set(key as string, socket);
      return view(socket);
    },
    async send({ key, frames }) {
      const socket = held(key);
      for (const out of frames as Out[]) sendFrame(socket, out);
      return view(socket);
    },
    async ping({ key, data }) {
      const socket = held(key).socket as WebSocket;
      const pong = new Promise<string>((resolve) => socket.once('pong', (payload) => resolve(payload.toString('utf8'))));
      socket.ping(data as string);
      return { pong: await pong };
    },
    async wait({ key, count, closed }) {
      const socket = held(key);
      await socket.until(() => (closed === true ? socket.closed !== undefined : socket.got.length >= (count as number) || socket.closed !== undefined), closed === true ? 'close' : `${count as number} frames`);
      return view(socket);
    },
    async close({ key, code, reason }) {
      const socket = held(key);
      socket.socket.close(code as number | undefined, reason as string | undefined);
      await socket.until(() => socket.closed !== undefined, 'close');
      return view(socket);
    },
    async fetch({ url }) {
      const response = await fetch(url as string);
      return { status: response.status, body: await response.text() };
    },
    ...more,
  };
  for (const [name, route] of Object.entries(routes)) {
    app.post(`/${name}`, async (req, res) => {
      try {
        res.json({ ok: true, result: await route(req.body as Record<string, unknown>) });
      } catch (error) {
        res.status(500).json({ ok: false, error: String((error as Error).stack ?? error) });
      }
    });
  }
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function client(scenario?: Extract<keyof S, string>, variant?: string): Promise<HarnessClient> {
    const made = createHarnessClient({ baseURL: origin, testId: randomUUID(), logger: { warn: () => {} }, ...(options.access?.token === undefined ? {} : { token: options.access.token }) });
    if (scenario !== undefined) await made.switchScenario(scenario, variant === undefined ? {} : { variant } as never);
    return made;
  }

  /** Post to the app's route as `test` (its test-ID headers); the route's `result`, or its failure. */
  async function call<T = ReturnType<typeof view>>(test: HarnessClient | undefined, route: string, body: Record<string, unknown>): Promise<T> {
    const response = await fetch(`${origin}/${route}`, { method: 'POST', headers: { ...test?.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const answer = (await response.json()) as { ok: boolean; result?: T; error?: string };
    if (!answer.ok) throw new Error(`The app failed: ${answer.error}`);
    return answer.result as T;
  }

  async function stop() {
    for (const [key, socket] of sockets) {
      if (socket.closed === undefined) {
        if (socket.client === 'ws') (socket.socket as WebSocket).terminate();
        else socket.socket.close();
      }
      sockets.delete(key);
    }
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeAllConnections();
    await closed;
    await harness.stop();
  }
  return { origin, harness, logs, client, call, stop };
}

function held(key: unknown): AppSocket {
  const socket = sockets.get(key as string);
  if (socket === undefined) throw new Error(`no socket ${String(key)}`);
  return socket;
}

/** A fresh key for one of the app's sockets. */
export const newKey = () => randomUUID();

/** The test's journal once `done(entries)` holds: read again on each turn until then (at most `ms`). */
export async function journalUntil(harness: HarnessClient, done: (entries: JournalEntry[]) => boolean, ms = 5000): Promise<JournalEntry[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const entries = await harness.calls();
    if (done(entries)) return entries;
    if (Date.now() > deadline) throw new Error(`the journal never got there: ${JSON.stringify(entries.map((entry) => [entry.kind, entry.socket]))}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The close code a client reports after a handshake the harness refused: 1006, but Node 22's own
 * undici (6.x, behind the global WebSocket) fires 'error' and no 'close' for a failed handshake.
 */
export function refusedHandshakeClose(client: ClientName): number | undefined {
  return client === 'global' && Number(process.versions.undici?.split('.')[0]) < 7 ? undefined : 1006;
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { controlAnswerFor, pathnameOf } from '../adapters/_node-http.js';
import { jsonResponse, toResponse } from '../core/control/json-response.js';
import type { Harness } from '../core/create-harness.js';
import { createHarness } from '../harness.js';
import { consoleLogger, quote, type Logger } from '../core/dev-utils.js';
import { getHarnessInternals } from '../core/harness-internals.js';
import { createMemoryStore } from '../core/store/memory-store.js';
import type { SessionStore } from '../core/store/session-store.js';
import { HINT_HEADER } from '../core/constants.js';
import { isConnectionFault, replyToResponse, wait } from '../core/interception/mock-reply.js';
import { socketNotCarried } from '../core/interception/call-outcome.js';
import { callFromRequest } from '../core/interception/outgoing-call.js';
import { runWithTestId } from '../core/test-context.js';
import type { ContractsOptions } from '../core/contract-check.js';
import type { AccessOptions, HarnessControlOptions, HarnessEndpoints, ScenarioMap } from '../core/types.js';
import { drainRequest, toCallRequest, writeResponse } from './_http.js';
import { failedCallResponse } from './failed-call-response.js';
import { forwardAndCapture, forwardCall } from './forward-call.js';
import { FORWARD_HINT, refuseForward, type ForwardRules, type Refusal } from './refuse-forward.js';
import { targetUrlOf } from './target-url.js';

/** The fixed path of the health check, on the main port. */
export const HEALTH_PATH = '/__harness__/health';

/** An upstream served on a port of its own, for clients that take only a base URL. */
export interface UpstreamPort {
  /** `https://api.stripe.com`: every path on the port belongs to it. */
  origin: string;
  /** 0 picks a free port. */
  port: number;
}

export interface StandaloneServerOptions {
  scenarios: ScenarioMap;
  /** @default a new in-memory store */
  store?: SessionStore;
  /** @default '127.0.0.1' */
  host?: string;
  /** 0 picks a free port. @default 9400 */
  port?: number;
  upstreams?: readonly UpstreamPort[];
  /** @default 'warn' */
  unhandled?: 'bypass' | 'warn' | 'error';
  endpoints?: HarnessEndpoints;
  /** @default console, prefixed `[scenario-harness]` */
  logger?: Logger;
  /** More facts for the health answer; a rejection makes it a 503 naming the reason (a store that is down). */
  health?: () => Promise<Record<string, unknown>>;
  /** Who may use the control endpoints, as `createHarness({ access })`; the health check and the calls it answers stay open. */
  access?: AccessOptions;
  /** Which Host names and cross-site browser requests the control endpoints answer, as `createHarness({ control })`. */
  control?: HarnessControlOptions;
  /**
   * Check each answered call against these API documents, as `createHarness({ contracts })`:
   * the documents are read by `listen()` (one that cannot be read rejects it, naming the file),
   * journal entries carry `contractViolations`, and `onViolation: 'error'` answers `502`.
   */
  contracts?: ContractsOptions;
}

/** A running standalone server: the main port plus one port per upstream. */
export interface StandaloneServer {
  /** `http://127.0.0.1:9400` once listening. */
  readonly url: string;
  /** Each upstream with the address that answers for it, once listening. */
  readonly upstreams: readonly { origin: string; url: string }[];
  /** How many scenarios the current set holds. */
  readonly scenarioCount: number;
  listen(): Promise<void>;
  /** Swap in new scenarios; rejects (keeping the current set) when they are invalid or a contract document no longer reads. Sessions are kept. */
  reload(scenarios: ScenarioMap): Promise<void>;
  /** Stop accepting, finish the calls in flight (at most `graceMs`), then close. */
  close(options?: { graceMs?: number }): Promise<void>;
}

const DEFAULT_PORT = 9400;
const DEFAULT_HOST = '127.0.0.1';

/**
 * The standalone mock server behind `scenario-harness serve`: the engine, the control API and
 * the session store of an embedded harness, answering calls sent to it over HTTP instead of
 * intercepted ones. It never intercepts anything in its own process.
 */
export function createStandaloneServer(options: StandaloneServerOptions): StandaloneServer {
  const { host = DEFAULT_HOST, port = DEFAULT_PORT, upstreams = [], unhandled = 'warn', endpoints, logger = consoleLogger } = options;
  const ownsStore = options.store === undefined;
  const store = options.store ?? createMemoryStore();

  function build(scenarios: ScenarioMap): { harness: Harness; count: number; started: Promise<void> } {
    // The server answers what is sent to it: nothing in its own process is intercepted.
    // @note allowProduction: a mock server carries no real user's traffic, and NODE_ENV=production
    // is often set image-wide in containers; who may reach it is serve's own rule (serveAccess:
    // a token, or --insecure-no-token, beyond loopback).
    const harness = createHarness({ enabled: true, intercept: false, allowProduction: true, scenarios, store, endpoints, logger, unhandled, announce: false, access: options.access, control: options.control, contracts: options.contracts });
    // start() reads the contract documents; its failure is listen()'s or reload()'s to report, never an unhandled rejection.
    const started = harness.start();
    started.catch(() => {});
    return { harness, count: Object.keys(scenarios).length, started };
  }
  let current = build(options.scenarios);
  let closing = false;
  const upstreamOrigins: ReadonlySet<string> = new Set(upstreams.map(({ origin }) => new URL(origin).origin));

  /** Where forwarding may go: the configured upstreams, and never one of the server's own ports. */
  function forwardRules(): ForwardRules {
    const ownPorts = [main, ...upstreamServers.map(({ server: httpServer }) => httpServer)].filter((httpServer) => httpServer.listening).map((httpServer) => (httpServer.address() as AddressInfo).port);
    return { upstreams: upstreamOrigins, ownPorts };
  }

  async function answerCall(harness: Harness, req: IncomingMessage, url: URL): Promise<Response | 'drop'> {
    const request = toCallRequest(req, url);
    const testId = harness.testIdFrom(req.headers);
    const { listener } = getHarnessInternals(harness);
    const call = callFromRequest(request, url);
    const what = `${call.method} ${url.origin}${url.pathname}`;
    let refusal: Refusal | undefined;
    // The engine logs unanswered calls itself ('warn': once per endpoint; 'error' or refused: every time).
    const outcome = await runWithTestId(testId, async () => {
      const answered = await listener.answer(call);
      if (answered !== undefined) return answered;
      // 'error' fails every unanswered call anyway; the others would forward it, so only where allowed.
      refusal = unhandled === 'error' ? undefined : await refuseForward(url, forwardRules(), 'unanswered');
      return listener.unanswered(call, refusal?.reason);
    });
    if (outcome.kind === 'pass') {
      // Checked again here: a recording test's calls pass whatever the scenario says, and nothing is forwarded unchecked.
      const refused = await refuseForward(url, forwardRules(), outcome.capture === undefined ? 'unanswered' : 'recording');
      const { capture } = outcome;
      if (refused === undefined) return capture === undefined ? forwardCall(request) : forwardAndCapture(request, capture);
      capture?.failed();
      logger.error(`Refused to forward ${what} for test ${quote(testId)}: ${refused.reason}.`);
      return jsonResponse({ error: `Failed to forward ${what} for test ${quote(testId)}: ${refused.reason}. Instead, ${refused.remedy}.`, testId }, 502, { [HINT_HEADER]: FORWARD_HINT });
    }
    if (outcome.kind === 'reply') {
      const { reply } = outcome;
      if (reply.delay > 0) await wait(reply.delay);
      // `error: 'network'`: the caller sees the connection drop, as with an unreachable server.
      if (reply.fault === 'timeout') return new Promise<'drop'>((resolve) => req.once('close', () => resolve('drop')));
      return isConnectionFault(reply.fault) ? 'drop' : replyToResponse(reply, call.method, url);
    }
    if (outcome.kind === 'socket') return failedCallResponse(socketNotCarried(call, 'the standalone server'), { what, testId, refusal });
    return failedCallResponse(outcome.error, { what, testId, refusal });
  }

  async function health(): Promise<Response> {
    const facts = { scenarios: current.count, unhandled, upstreams: Object.fromEntries(server.upstreams.map(({ origin, url }) => [origin, url])) };
    try {
      return jsonResponse({ status: 'ok', ...facts, ...(await options.health?.()) });
    } catch (error) {
      return jsonResponse({ status: 'unavailable', error: (error as Error).message, ...facts }, 503);
    }
  }

  /** Everything one request gets, as a Response (errors included). */
  async function respond(req: IncomingMessage, upstreamOrigin: string | undefined): Promise<Response | 'drop'> {
    const { harness } = current;
    const path = req.url ?? '/';
    if (upstreamOrigin === undefined) {
      const pathname = pathnameOf(path);
      if (pathname === HEALTH_PATH && (req.method === 'GET' || req.method === 'HEAD')) return health();
      if (harness.isControlPath(pathname)) {
        const control = await controlAnswerFor(harness, req);
        if (control !== null) return toResponse(control);
      }
    }
    const url = targetUrlOf(path, upstreamOrigin);
    if (url === undefined) {
      const error = `No upstream in the path ${quote(path)}. Put the upstream's scheme and host first: ${server.url}/https/api.example.com/v1/charges is answered as https://api.example.com/v1/charges. Or give the upstream a port of its own: --upstream https://api.example.com=9401.`;
      return jsonResponse({ error }, 404);
    }
    try {
      return await answerCall(harness, req, url);
    } catch (error) {
      const reason = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
      logger.error(`Failed to answer ${req.method} ${url.href}: ${reason}.`);
      return jsonResponse(
        { error: `Failed to answer ${req.method} ${url.href}: ${reason}. A call no mock answers goes to the real upstream (--unhandled ${unhandled}); check that it is reachable, or add a mock for it.` },
        502,
      );
    }
  }

  function listenerFor(upstreamOrigin: string | undefined) {
    return (req: IncomingMessage, res: ServerResponse) => {
      respond(req, upstreamOrigin)
        .then((response) => {
          if (response === 'drop') return void res.destroy();
          // Once stopping, each answer closes its connection, so a kept-alive client does not hold the exit up.
          if (closing) res.setHeader('connection', 'close');
          return writeResponse(res, response);
        })
        .then(() => drainRequest(req))
        .catch((error: unknown) => {
          logger.error(`Failed to answer ${req.method} ${req.url}`, error);
          if (!res.headersSent) {
            res.statusCode = 500;
            res.setHeader('content-type', 'application/json');
            res.end(JSON.stringify({ error: 'Internal server error' }));
          } else res.destroy();
        });
    };
  }

  const main = createServer(listenerFor(undefined));
  const upstreamServers = upstreams.map(({ origin, port: upstreamPort }) => ({ origin, port: upstreamPort, server: createServer(listenerFor(origin)) }));
  const originOf = (httpServer: Server) => `http://${host.includes(':') ? `[${host}]` : host}:${(httpServer.address() as AddressInfo).port}`;

  async function listenOn(httpServer: Server, listenPort: number, what: string): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException) => {
        const reason =
          error.code === 'EADDRINUSE'
            ? `port ${listenPort} on ${host} is in use. Pick another (${what === 'the server' ? '--port' : '--upstream <origin>=<port>'}), or stop what runs there`
            : error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND'
              ? `${host} is not an address of this machine. Use --host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every interface, e.g. in a container)`
              : error.message;
        reject(new Error(`Failed to start ${what}: ${reason}.`, { cause: error }));
      };
      httpServer.once('error', onError);
      httpServer.listen(listenPort, host, () => {
        httpServer.off('error', onError);
        resolve();
      });
    });
  }

  async function closeServer(httpServer: Server, graceMs: number): Promise<void> {
    if (!httpServer.listening) return;
    const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
    httpServer.closeIdleConnections();
    // Calls still in flight after the grace period (a mock with a long delay) are cut off.
    const timer = setTimeout(() => httpServer.closeAllConnections(), graceMs);
    timer.unref();
    await closed;
    clearTimeout(timer);
  }

  const server: StandaloneServer = {
    get url() {
      return main.listening ? originOf(main) : `http://${host}:${port}`;
    },
    get upstreams() {
      return upstreamServers.map(({ origin, port: upstreamPort, server: httpServer }) => ({ origin, url: httpServer.listening ? originOf(httpServer) : `http://${host}:${upstreamPort}` }));
    },
    get scenarioCount() {
      return current.count;
    },
    async listen() {
      try {
        // Before anything binds: a contract document that cannot be read stops the server here.
        await current.started;
        await listenOn(main, port, 'the server');
        for (const upstream of upstreamServers) await listenOn(upstream.server, upstream.port, `the port for ${upstream.origin}`);
        // Known only once listening (port 0): an upstream that is the server itself is refused on every call, so say so now.
        for (const { origin } of upstreamServers) {
          const refused = await refuseForward(new URL(origin), forwardRules(), 'unanswered');
          if (refused !== undefined) logger.warn(`--upstream ${origin} is refused on every call no mock answers: ${refused.reason}. ${refused.remedy[0]!.toUpperCase()}${refused.remedy.slice(1)}.`);
        }
      } catch (error) {
        await server.close({ graceMs: 0 });
        throw error;
      }
    },
    async reload(scenarios) {
      const next = build(scenarios);
      // The current set answers until the new one has read its contract documents.
      await next.started;
      current = next;
    },
    async close({ graceMs = 5000 } = {}) {
      closing = true;
      await Promise.all([main, ...upstreamServers.map(({ server: httpServer }) => httpServer)].map((httpServer) => closeServer(httpServer, graceMs)));
      if (ownsStore) await store.close?.();
    },
  };
  return server;
}

import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppReadiness } from '../core/control/app-readiness.js';
import { TEST_ID_HEADER } from '../core/constants.js';
import { probeOwnServer, type OwnServerAddress, type ProbeOutcome } from './probe-own-server.js';

/** The test ID the readiness probe's page request runs as: its calls, if any, are in that test's journal. */
export const READY_PROBE_TEST_ID = 'harness-ready-probe';

export interface OwnServerReadinessOptions {
  /** How long a `?ready` request waits for a probe in flight before it answers 503 (the probe goes on). @default 2000 */
  waitMs?: number;
  /** How long one probe waits for the page before it gives up (the next `?ready` starts another). @default 60000 */
  timeoutMs?: number;
}

/** Pages asked about at once (`?ready=/…`); one is the rule. */
const MAX_PATHS = 8;

interface PathState {
  /** A page answered below 500 once: the app serves. */
  served?: true;
  probing?: Promise<AppReadiness>;
}

/** Where the request came in, for a client in this process to reach the same server. */
function addressOf(req: IncomingMessage): OwnServerAddress | undefined {
  const socket = req.socket as IncomingMessage['socket'] & { encrypted?: boolean; server?: { address(): AddressInfo | string | null } };
  const tls = socket.encrypted === true;
  if (socket.localPort !== undefined && socket.localAddress !== undefined) return { host: socket.localAddress, port: socket.localPort, tls };
  // A server on a Unix socket: its path is the server's address.
  const address = socket.server?.address();
  return typeof address === 'string' ? { socketPath: address, tls } : undefined;
}

function describe(path: string, outcome: ProbeOutcome): AppReadiness {
  if ('error' in outcome) return { ready: false, reason: `GET ${path} on this server failed: ${outcome.error}` };
  if (outcome.status >= 500) return { ready: false, reason: `GET ${path} on this server answered ${outcome.status} (a loading screen or an error)` };
  return { ready: true };
}

/**
 * Whether the app behind this process's servers serves its pages yet, found out by asking: a GET
 * of the page (default `/`) on the server the question came in on, as the app's clients send it.
 * The first answer below 500 means the app serves, and stays so; a 5xx (a loading screen, an
 * error), a refused connection or no answer does not. One probe per page is in flight at a time,
 * shared by every `?ready` that comes meanwhile; each waits for it up to `waitMs`.
 */
export function createOwnServerReadiness({ waitMs = 2000, timeoutMs = 60_000 }: OwnServerReadinessOptions = {}): (req: IncomingMessage, path: string) => Promise<AppReadiness> {
  const pages = new Map<string, PathState>();
  const newState = (path: string): PathState => {
    if (pages.size >= MAX_PATHS) pages.delete(pages.keys().next().value!);
    const state: PathState = {};
    pages.set(path, state);
    return state;
  };

  return async (req, path) => {
    const state = pages.get(path) ?? newState(path);
    if (state.served) return { ready: true };
    const address = addressOf(req);
    if (address === undefined) return { ready: false, reason: `the server this request came in on has no address to ask GET ${path} at` };
    if (state.probing === undefined) {
      const probing = probeOwnServer(address, {
        path,
        host: req.headers.host ?? (address.port === undefined ? 'localhost' : `${address.host}:${address.port}`),
        headers: { [TEST_ID_HEADER]: READY_PROBE_TEST_ID },
        timeoutMs,
      }).then((outcome) => {
        const readiness = describe(path, outcome);
        if (readiness.ready) state.served = true;
        state.probing = undefined;
        return readiness;
      });
      state.probing = probing;
    }
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<AppReadiness>((resolve) => {
      timer = setTimeout(() => resolve({ ready: false, reason: `GET ${path} on this server has not answered within ${waitMs / 1000} s (the check goes on)` }), waitMs);
    });
    try {
      return await Promise.race([state.probing, waited]);
    } finally {
      clearTimeout(timer);
    }
  };
}
